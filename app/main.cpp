// scalebench: the console. Headless (run, compare, report, import, add-clusters) or windowed is decided
// before any widget exists.
#include "batch_command.h"
#include "console_options.h"
#include "delete_command.h"
#include "import_command.h"
#include "main_window.h"
#include "orphan_sessions.h"
#include "project_command.h"
#include "report_command.h"
#include "results_table.h"
#include "scaling_chart_png.h"
#include "session_controller.h"
#include "session_store.h"

#include <QApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QTimer>
#include <algorithm>
#include <cerrno>
#include <iostream>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using namespace scalebench;

namespace {

// Headless runs (cron, CI, ssh) often have no XDG_RUNTIME_DIR; Qt then warns on every start. Give it a
// private one.
void ensureRuntimeDir() {
    if (qEnvironmentVariableIsSet("XDG_RUNTIME_DIR")) return;
    const std::string dir = "/tmp/scalebench-runtime-" + std::to_string(getuid());
    if (mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) qputenv("XDG_RUNTIME_DIR", dir.c_str());
}

// The offscreen platform says it cannot propagate size hints, which means nothing for a PNG.
void quietOffscreenMessages(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("propagateSizeHints"))) return;
    static const QtMessageHandler standard = qInstallMessageHandler(nullptr);
    standard(type, context, message);
}

// A command shows no window: Qt Charts renders its PNGs only inside a QApplication, so it runs offscreen
// whatever QT_QPA_PLATFORM says. (QT_QPA_PLATFORM=xcb with no DISPLAY, an ssh login into a desktop's account
// or a cron job, made Qt's xcb plugin spin at 100 % CPU with no output.)
void renderOffscreen() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    ensureRuntimeDir();
    qInstallMessageHandler(quietOffscreenMessages);
}

// Why the window cannot open here, or nothing: the platform Qt would use (QT_QPA_PLATFORM, or -platform NAME
// among the arguments; Qt's default on Linux is xcb, wayland where only WAYLAND_DISPLAY is set) needs a
// display and its variable is not set. Platforms that need none (offscreen, minimal, vnc, ...) pass.
std::optional<std::string> missingDisplay(int argc, char** argv) {
    std::string platform = qEnvironmentVariable("QT_QPA_PLATFORM").toStdString();
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "-platform") platform = argv[i + 1];
    const bool x11 = qEnvironmentVariableIsSet("DISPLAY"),
               wayland = qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
    const std::string name = platform.substr(0, platform.find(':'));
    if (name == "xcb" && !x11) return "QT_QPA_PLATFORM is xcb and DISPLAY is not set";
    if (name == "wayland" && !wayland) return "QT_QPA_PLATFORM is wayland and WAYLAND_DISPLAY is not set";
    if (name.empty() && !x11 && !wayland) return "neither DISPLAY nor WAYLAND_DISPLAY is set";
    return std::nullopt;
}

int batchMain(int argc, char** argv, const ConsoleOptions& options) {
    renderOffscreen();
    QApplication app(argc, argv);
    const BatchResult batch = runBatch(options, std::cout, std::cerr);
    if (!batch.results.empty()) {
        const auto png = options.out_dir / "scaling.png";
        if (renderScalingChartPng(sessionScaling(batch.results), QString(),
                                  QString::fromStdString(png.string())))
            std::cout << "scaling chart: " << png.string() << "\n";
        else
            std::cerr << "scalebench: could not write the scaling chart " << png.string() << "\n";
    }
    return batch.exit_code;
}

int guiMain(int argc, char** argv, const ConsoleOptions& options) {
    if (const auto missing = missingDisplay(argc, argv)) {
        std::cerr
            << "scalebench: the window needs a display, and " << *missing
            << ". Open it in a desktop session (or with QT_QPA_PLATFORM=offscreen for screenshots); the "
               "commands need none: scalebench run PLAN, report, compare, import, project (scalebench "
               "--help)\n";
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("scalebench"));
    QApplication::setApplicationName(QStringLiteral("scalebench"));
    try {
        if (options.db.has_parent_path()) std::filesystem::create_directories(options.db.parent_path());
        SessionStore store(options.db);
        // Sessions a crashed console left running are resolved before the window lists them.
        for (const auto& line : resolveOrphans(store))
            std::cerr << "scalebench: " << line << "\n";
        SessionController controller(options); // runs plans on a worker thread, like --batch
        MainWindow window(store, &controller); // lists the stored sessions and shows the newest
        controller.setPassphrasePrompt([&window](const QString& prompt) {
            return QInputDialog::getText(&window, QObject::tr("SSH key passphrase"), prompt,
                                         QLineEdit::Password);
        });
        if (!options.tab.empty()) window.showTab(QString::fromStdString(options.tab) + QStringLiteral("Tab"));
        window.show();
        if (!options.screenshot.empty()) {
            QTimer::singleShot(800, &window, [&] {
                if (!window.saveScreenshot(QString::fromStdString(options.screenshot.string())))
                    std::cerr << "scalebench: cannot write " << options.screenshot.string() << "\n";
                app.quit();
            });
        }
        return app.exec();
    } catch (const std::exception& e) {
        std::cerr << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace

int main(int argc, char** argv) {
    ConsoleOptions options;
    try {
        options = parseConsoleOptions(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const ConsoleUsageError& e) {
        std::cerr << "scalebench: " << e.what() << "\ntry '" << e.help_command << "'\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "scalebench: " << e.what() << "\n";
        return 2;
    }
    switch (options.mode) {
    case ConsoleOptions::Mode::Version:
        std::cout << "scalebench " << SCALEBENCH_VERSION << "\n";
        return 0;
    case ConsoleOptions::Mode::Help:
        std::cout << consoleUsage(options.help_command);
        return 0;
    case ConsoleOptions::Mode::Batch:
        return batchMain(argc, argv, options);
    case ConsoleOptions::Mode::AddClusters:
        return addClusters(options, std::cout, std::cerr);
    case ConsoleOptions::Mode::Delete:
        return deleteSession(options, std::cout, std::cerr);
    case ConsoleOptions::Mode::Compare:
        return compareSessions(options, std::cout, std::cerr);
    case ConsoleOptions::Mode::Import:
        return importRuns(options, std::cout, std::cerr);
    case ConsoleOptions::Mode::Report: { // its charts are drawn by Qt Charts: a QApplication, offscreen
        renderOffscreen();
        const QApplication app(argc, argv);
        return reportSession(options, std::cout, std::cerr);
    }
    case ConsoleOptions::Mode::Project:
        return projectSession(options, std::cout, std::cerr);
    case ConsoleOptions::Mode::Gui:
        break;
    }
    return guiMain(argc, argv, options);
}
