// Catch2 main for Qt tests: an offscreen QApplication exists before any test runs.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <memory>

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt warns when XDG_RUNTIME_DIR is missing or not private; give it a fresh 0700 folder for this run.
    std::unique_ptr<QTemporaryDir> runtime_dir;
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        runtime_dir =
            std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/scalebench-xdg-XXXXXX"));
        if (runtime_dir->isValid()) {
            QFile::setPermissions(runtime_dir->path(),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
            qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtime_dir->path()));
        }
    }
    // Settings a test writes (File > Export's last folder) go to Qt's test folders, not the user's.
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
