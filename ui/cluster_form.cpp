// The clusters view's form over one cluster's settings: how ssh reaches the head node, and what its Slurm
// jobs ask for; each field at fault in a save is marked and named. Its fields are made, filled and read from
// the [[cluster]] keys' table (SCALEBENCH_CLUSTER_KEYS, core/plans/cluster_settings.h): a field's widget
// follows its key's kind, and kFieldLooks below says only how it looks.
#include "cluster_form.h"

#include "form_widgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <limits>

namespace scalebench {
namespace {

using Kind = cluster_key::Kind;

enum class Box { HeadNode, Jobs };

// How one key's field looks: its box, its label, its object name and the hints it carries. A list of texts
// is one line of comma-separated words unless `lines` (a text box, one a line).
struct FieldLook {
    const char* key;
    Box box;
    const char* label;
    const char* object_name;
    const char* placeholder = "";
    const char* special_value = ""; // a spin box's text at its least value
    int most = 0;                   // a spin box's largest value (0: the widget's own)
    const char* suffix = "";
    const char* check_text = ""; // a switch's text beside its box
    const char* tool_tip = "";
    bool lines = false;
};

// In the form's order, box by box. jobcomp_log has no field: it comes from a cluster file.
const FieldLook kFieldLooks[] = {
    {"name", Box::HeadNode, QT_TR_NOOP("Name"), "clusterName"},
    {"host", Box::HeadNode, QT_TR_NOOP("Host"), "host", QT_TR_NOOP("name, address or ssh config Host")},
    {"user", Box::HeadNode, QT_TR_NOOP("User"), "user", QT_TR_NOOP("ssh config's, else yours")},
    {"port", Box::HeadNode, QT_TR_NOOP("Port"), "port", "", QT_TR_NOOP("ssh config's, else 22"), 65535},
    {"identity_files", Box::HeadNode, QT_TR_NOOP("Key files"), "identityFiles",
     QT_TR_NOOP("key files, comma-separated; agent first")},
    {"known_hosts", Box::HeadNode, QT_TR_NOOP("known_hosts"), "knownHosts", "~/.ssh/known_hosts"},
    {"trust_on_first_use", Box::HeadNode, QT_TR_NOOP("First use"), "trustOnFirstUse", "", "", 0, "",
     QT_TR_NOOP("trust a new host key in --batch"),
     QT_TR_NOOP("--batch accepts the head node's key when known_hosts has none for it (trust on first use); "
                "unchecked, it refuses an unknown key. A changed key is always refused.")},
    {"remote_root", Box::HeadNode, QT_TR_NOOP("Remote folder"), "remoteRoot"},
    {"torch_python", Box::HeadNode, QT_TR_NOOP("Torch Python"), "torchPython"},
    {"data_root", Box::HeadNode, QT_TR_NOOP("Data sets"), "dataRoot",
     QT_TR_NOOP("one folder per data set, e.g. " SCALEBENCH_DATA_ROOT "/cifar10")},
    {"partition", Box::Jobs, QT_TR_NOOP("Partition"), "partition"},
    {"account", Box::Jobs, QT_TR_NOOP("Account"), "account"},
    {"constraint", Box::Jobs, QT_TR_NOOP("Constraint"), "constraint"},
    {"time_limit", Box::Jobs, QT_TR_NOOP("Time limit"), "timeLimit", "HH:MM:SS"},
    {"tasks_per_node", Box::Jobs, QT_TR_NOOP("Tasks per node"), "tasksPerNode", "", "", 4096},
    {"gpus_per_node", Box::Jobs, QT_TR_NOOP("GPUs per node"), "clusterGpusPerNode", "",
     QT_TR_NOOP("none requested"), 1024},
    {"gres_syntax", Box::Jobs, "", "gresSyntax", "", "", 0, "", QT_TR_NOOP("ask with --gres=gpu:N"),
     QT_TR_NOOP("Older Slurm: GPUs asked for with --gres=gpu:N instead of --gpus-per-node=N")},
    {"exclusive", Box::Jobs, QT_TR_NOOP("Exclusive"), "exclusive", "", "", 0, "", QT_TR_NOOP("whole nodes")},
    {"launcher", Box::Jobs, QT_TR_NOOP("Launcher"), "launcher"},
    {"container_image", Box::Jobs, QT_TR_NOOP("Container"), "containerImage"},
    {"poll_seconds", Box::Jobs, QT_TR_NOOP("Poll every"), "pollSeconds", "", "", 3600, " s"},
    {"setup", Box::Jobs, QT_TR_NOOP("Setup lines"), "setupLines", "module load cuda/12.4", "", 0, "", "", "",
     true},
    {"nccl_env", Box::Jobs, QT_TR_NOOP("NCCL variables"), "ncclEnv", "NCCL_IB_HCA=mlx5", "", 0, "", "", "",
     true},
    // What a run costs, and the cost to train on the Projection page (on CPU runs a GPU is a rank).
    {"price_per_gpu_hour", Box::Jobs, QT_TR_NOOP("Price per GPU-hour"), "pricePerGpuHour", "",
     QT_TR_NOOP("no price"), 1000000},
    {"currency", Box::Jobs, QT_TR_NOOP("Currency"), "currency", "USD"},
};

// The kind and least value of a [[cluster]] key, from its row.
struct KeyRow {
    Kind kind;
    int least;
};
KeyRow keyRow(const std::string& key) {
#define SCALEBENCH_CLUSTER_ROW(name, member, kind, least, ...)                                               \
    if (key == #name) return {Kind::kind, least};
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_ROW)
#undef SCALEBENCH_CLUSTER_ROW
    return {Kind::Text, 0};
}

QString tr(const char* text) {
    return ClusterForm::tr(text);
}

QPlainTextEdit* textBox(const FieldLook& look, QWidget* parent) {
    auto* box = new QPlainTextEdit(parent);
    box->setPlaceholderText(tr(look.placeholder));
    box->setMaximumHeight(box->fontMetrics().height() * 5 + 12);
    box->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return box;
}

// The field a key's kind asks for, made as its look says.
QWidget* makeField(const FieldLook& look, QWidget* parent) {
    const KeyRow row = keyRow(look.key);
    QWidget* field = nullptr;
    if (row.kind == Kind::Int) {
        auto* spin = new QSpinBox(parent);
        spin->setRange(row.least, look.most > 0 ? look.most : std::numeric_limits<int>::max());
        spin->setSpecialValueText(tr(look.special_value));
        spin->setSuffix(QString::fromLatin1(look.suffix));
        field = spin;
    } else if (row.kind == Kind::Number) {
        auto* spin = new QDoubleSpinBox(parent);
        spin->setRange(row.least, look.most);
        spin->setDecimals(4);
        spin->setSpecialValueText(tr(look.special_value));
        field = spin;
    } else if (row.kind == Kind::Switch) {
        field = new QCheckBox(tr(look.check_text), parent);
    } else if (row.kind == Kind::Launcher) {
        auto* combo = new QComboBox(parent);
        combo->addItems({QStringLiteral("srun-pmix"), QStringLiteral("mpirun")});
        field = combo;
    } else if (row.kind == Kind::Env || look.lines) {
        field = textBox(look, parent);
    } else {
        auto* edit = new QLineEdit(parent);
        edit->setPlaceholderText(tr(look.placeholder));
        field = edit;
    }
    if (*look.tool_tip) field->setToolTip(tr(look.tool_tip));
    return named(field, look.object_name);
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// "a, b,, c" -> a, b, c
QStringList splitList(const QString& text) {
    QStringList out;
    for (const QString& word : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!word.trimmed().isEmpty()) out << word.trimmed();
    return out;
}

// The text's lines that are not blank, trimmed.
std::vector<std::string> lines(const QString& text) {
    std::vector<std::string> out;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty()) out.push_back(line.trimmed().toStdString());
    return out;
}

// A value into its field, by the value's type (the key's kind).
void showValue(QWidget* field, const std::string& value) {
    qobject_cast<QLineEdit*>(field)->setText(qs(value));
}
void showValue(QWidget* field, int value) {
    qobject_cast<QSpinBox*>(field)->setValue(value);
}
void showValue(QWidget* field, double value) {
    qobject_cast<QDoubleSpinBox*>(field)->setValue(value);
}
void showValue(QWidget* field, bool value) {
    qobject_cast<QCheckBox*>(field)->setChecked(value);
}
void showValue(QWidget* field, cluster_key::Launcher value) {
    qobject_cast<QComboBox*>(field)->setCurrentIndex(value == cluster_key::Launcher::Mpirun ? 1 : 0);
}
void showValue(QWidget* field, const std::vector<std::string>& values) {
    QStringList texts;
    for (const auto& v : values)
        texts << qs(v);
    if (auto* box = qobject_cast<QPlainTextEdit*>(field))
        box->setPlainText(texts.join(QLatin1Char('\n')));
    else
        qobject_cast<QLineEdit*>(field)->setText(texts.join(QStringLiteral(", ")));
}
void showValue(QWidget* field, const std::map<std::string, std::string>& env) {
    QStringList texts;
    for (const auto& [key, value] : env)
        texts << qs(key + "=" + value);
    qobject_cast<QPlainTextEdit*>(field)->setPlainText(texts.join(QLatin1Char('\n')));
}

// A field's value read back into the setting, by the setting's type.
void readValue(const QWidget* field, std::string& value) {
    value = qobject_cast<const QLineEdit*>(field)->text().trimmed().toStdString();
}
void readValue(const QWidget* field, int& value) {
    value = qobject_cast<const QSpinBox*>(field)->value();
}
void readValue(const QWidget* field, double& value) {
    value = qobject_cast<const QDoubleSpinBox*>(field)->value();
}
void readValue(const QWidget* field, bool& value) {
    value = qobject_cast<const QCheckBox*>(field)->isChecked();
}
void readValue(const QWidget* field, cluster_key::Launcher& value) {
    value = qobject_cast<const QComboBox*>(field)->currentIndex() == 1 ? cluster_key::Launcher::Mpirun
                                                                       : cluster_key::Launcher::SrunPmix;
}
void readValue(const QWidget* field, std::vector<std::string>& values) {
    values.clear();
    if (const auto* box = qobject_cast<const QPlainTextEdit*>(field)) {
        values = lines(box->toPlainText());
        return;
    }
    for (const QString& word : splitList(qobject_cast<const QLineEdit*>(field)->text()))
        values.push_back(word.toStdString());
}
void readValue(const QWidget* field, std::map<std::string, std::string>& env) {
    env.clear();
    for (const std::string& line : lines(qobject_cast<const QPlainTextEdit*>(field)->toPlainText())) {
        const auto equals = line.find('=');
        env[line.substr(0, equals)] = equals == std::string::npos ? "" : line.substr(equals + 1);
    }
}

} // namespace

ClusterForm::ClusterForm(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* head = named(new QGroupBox(tr("Head node (SSH)"), this), "headNodeSettings");
    auto* jobs = named(new QGroupBox(tr("Jobs (Slurm)"), this), "jobSettings");
    auto* head_rows = new QFormLayout(head);
    auto* job_rows = new QFormLayout(jobs);
    for (const FieldLook& look : kFieldLooks) {
        QGroupBox* box = look.box == Box::HeadNode ? head : jobs;
        QWidget* field = makeField(look, box);
        (look.box == Box::HeadNode ? head_rows : job_rows)
            ->addRow(*look.label ? tr(look.label) : QString(), field);
        fields_[look.key] = field;
    }
    layout->addWidget(head, 1);
    layout->addWidget(jobs, 1);
}

void ClusterForm::setSettings(const ClusterSettings& c) {
    base_ = c;
#define SCALEBENCH_CLUSTER_SHOW(key, member, ...)                                                            \
    if (const auto field = fields_.find(#key); field != fields_.end()) showValue(field->second, c.member);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_SHOW)
#undef SCALEBENCH_CLUSTER_SHOW
    setEnabledFields(!isLocalMachine(c));
    markFields({});
}

void ClusterForm::setEnabledFields(bool editable) {
    for (auto* box : findChildren<QGroupBox*>())
        box->setEnabled(editable);
}

ClusterSettings ClusterForm::settings() const {
    if (isLocalMachine(base_)) return base_;
    ClusterSettings c = base_;
#define SCALEBENCH_CLUSTER_READ(key, member, ...)                                                            \
    if (const auto field = fields_.find(#key); field != fields_.end()) readValue(field->second, c.member);
    SCALEBENCH_CLUSTER_KEYS(SCALEBENCH_CLUSTER_READ)
#undef SCALEBENCH_CLUSTER_READ
    return c;
}

void ClusterForm::editName() {
    auto* name = qobject_cast<QLineEdit*>(fields_.at("name"));
    name->setFocus();
    name->selectAll();
}

QString ClusterForm::fieldLabel(const std::string& key) const {
    if (const auto it = fields_.find(key); it != fields_.end()) {
        for (auto* layout : findChildren<QFormLayout*>())
            if (auto* label = qobject_cast<QLabel*>(layout->labelForField(it->second));
                label && !label->text().isEmpty())
                return label->text();
        if (auto* box = qobject_cast<QCheckBox*>(it->second))
            return box->text(); // a row of its own: its text
    }
    return qs(key) + tr(" (not in this form)"); // jobcomp_log: from a cluster file
}

void ClusterForm::markFields(const std::vector<ClusterProblem>& problems) {
    for (const auto& [key, widget] : fields_) {
        const FieldLook* look = nullptr;
        for (const FieldLook& l : kFieldLooks)
            if (key == l.key) look = &l;
        widget->setToolTip(look && *look->tool_tip ? tr(look->tool_tip) : QString());
        widget->setStyleSheet(QString());
    }
    QWidget* first = nullptr;
    for (const auto& p : problems) {
        const auto it = fields_.find(p.key);
        if (it == fields_.end()) continue;
        QWidget* widget = it->second;
        const QString shown = widget->toolTip();
        widget->setToolTip(shown.isEmpty() ? qs(p.problem) : shown + QLatin1Char('\n') + qs(p.problem));
        widget->setStyleSheet(QStringLiteral("border: 2px solid #b00020;"));
        if (!first) first = widget;
    }
    if (first) first->setFocus();
}

} // namespace scalebench
