// The report's Projection section: the model's table and the buckets' check per training series.
#include "projection_report.h"

#include "bucket_check_model.h"
#include "performance_model.h"

#include <algorithm>

namespace scalebench {
namespace {

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString number(double value, int decimals) {
    return QString::number(value, 'f', decimals);
}

QString cell(const QString& text) {
    return QStringLiteral("<td>%1</td>").arg(text);
}

// formatProjection's rows as a table: the same figures and decimals, its notes numbered below it.
QString projectionTable(const ModelInputs& inputs, const std::vector<Projection>& rows) {
    const bool tokens = inputs.seq_len > 0, train = inputs.samples_to_train > 0,
               cost = inputs.price_per_gpu_hour > 0;
    QString html =
        QStringLiteral("<p>%1 scaling, hidden fraction %2 % of communication (measured at the largest rank "
                       "count).</p>\n")
            .arg(inputs.mode == ScalingMode::Weak
                     ? QStringLiteral("Weak (%1 samples per rank)").arg(inputs.batch_per_rank)
                     : QStringLiteral("Fixed global batch (%1 samples)").arg(inputs.global_batch))
            .arg(number(hiddenFraction(inputs) * 100, 0));
    html +=
        QStringLiteral("<table class=\"projection\">\n<thead><tr><th>ranks</th><th></th><th>compute ms</th>"
                       "<th>comm ms</th><th>exposed ms</th><th>step ms (band)</th><th>samples/s</th>"
                       "<th>speedup</th><th>eff.</th>");
    if (tokens) html += QStringLiteral("<th>tokens/s</th><th>days/1T</th>");
    if (train) html += QStringLiteral("<th>to train s</th>");
    if (cost) html += QStringLiteral("<th>cost/h</th><th>cost/train</th>");
    html += QStringLiteral(
        "<th>measured samples/s</th><th>prediction</th><th>notes</th></tr></thead>\n<tbody>\n");
    std::vector<std::string> notes; // each once, numbered in order of first use, as formatProjection's
    for (const Projection& p : rows)
        for (const std::string& note : p.notes)
            if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    const auto ms = [](double seconds) { return cell(number(seconds * 1e3, 3)); };
    for (const Projection& p : rows) {
        html += QStringLiteral("<tr class=\"%1\">")
                    .arg(p.extrapolated ? QStringLiteral("extrapolated") : QStringLiteral("predicted")) +
                cell(QString::number(p.ranks)) +
                cell(p.extrapolated ? QStringLiteral("extrap.") : QStringLiteral("predicted")) +
                ms(p.compute_s) + ms(p.comm_s) + ms(p.exposed_s) +
                cell(QStringLiteral("%1 (%2-%3)")
                         .arg(number(p.step_s * 1e3, 3), number(p.step_low_s * 1e3, 3),
                              number(p.step_high_s * 1e3, 3))) +
                cell(number(p.samples_per_s, 1)) + cell(number(p.speedup, 2) + QLatin1Char('x')) +
                cell(number(p.efficiency * 100, 0) + QLatin1Char('%'));
        if (tokens) html += cell(number(p.tokens_per_s, 0)) + cell(number(p.days_to_1t_tokens, 1));
        if (train) html += cell(number(p.time_to_train_s, 1));
        if (cost) html += cell(number(p.cost_per_hour, 2)) + cell(number(p.cost_to_train, 2));
        const bool checked = p.measured && p.measured_samples_per_s > 0;
        html += cell(checked ? number(p.measured_samples_per_s, 1) : QStringLiteral("-")) +
                cell(checked ? QString::asprintf("%+.1f %%",
                                                 (p.samples_per_s / p.measured_samples_per_s - 1) * 100)
                             : QStringLiteral("-"));
        QStringList marks;
        for (const std::string& note : p.notes)
            marks << QStringLiteral("[%1]").arg(std::find(notes.begin(), notes.end(), note) - notes.begin() +
                                                1);
        html += cell(marks.join(QLatin1Char(' '))) + QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody>\n</table>\n");
    if (!notes.empty()) {
        html += QStringLiteral("<ol class=\"notes\">\n");
        for (const std::string& note : notes)
            html += QStringLiteral("<li>%1</li>\n").arg(escaped(note));
        html += QStringLiteral("</ol>\n");
    }
    return html;
}

// Each bucket's check as BucketCheckModel shows it in the window, its reading above it; or why there is none.
QString bucketSection(const SeriesModelInputs& series) {
    QString html = QStringLiteral("<h4>Per bucket: the training's all-reduce against the sweep</h4>\n");
    std::vector<BucketCheck> checks = checkBuckets(series);
    if (checks.empty())
        return html + QStringLiteral("<p class=\"missing bucket-reading\">%1.</p>\n")
                          .arg(escaped(whyNoBucketChecks(series)));
    const BucketReading reading = readBucketChecks(checks);
    html += QStringLiteral("<p class=\"bucket-reading %1\">%2.</p>\n")
                .arg(reading.pace == BucketReading::Pace::Slower ? QStringLiteral("fail")
                                                                 : QStringLiteral("pass"))
                .arg(escaped(describeBucketReading(reading)));
    BucketCheckModel model;
    model.setChecks(std::move(checks));
    html += QStringLiteral("<table class=\"buckets\">\n<thead><tr>");
    for (int c = 0; c < model.columnCount(); ++c)
        html +=
            QStringLiteral("<th>%1</th>").arg(model.headerData(c, Qt::Horizontal).toString().toHtmlEscaped());
    html += QStringLiteral("</tr></thead>\n<tbody>\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        html += QStringLiteral("<tr>");
        for (int c = 0; c < model.columnCount(); ++c)
            html += cell(model.data(model.index(r, c)).toString().toHtmlEscaped());
        html += QStringLiteral("</tr>\n");
    }
    return html + QStringLiteral(
                      "</tbody>\n</table>\n<p class=\"caption\">Measured: the bucket's all-reduce as the "
                      "engine timed it on rank 0, the median over each run's steady-state steps, then over "
                      "the repeats; it includes waiting for the slower rank and, with overlap, polling while "
                      "backward runs. Predicted: the session's float32 all-reduce sweep at the bucket's size "
                      "and rank count, interpolated in log size where it measured them, otherwise modelled "
                      "(with the band's half-width). A median ratio within %1-%2 reads as the fabric's "
                      "speed.</p>\n")
                      .arg(kFabricSpeedLow)
                      .arg(kFabricSpeedHigh);
}

} // namespace

std::vector<int> reportProjectionRanks(const ModelInputs& inputs) {
    std::vector<int> ranks;
    int largest = 0;
    for (const MeasuredPoint& m : inputs.measured) {
        ranks.push_back(m.ranks);
        largest = std::max(largest, m.ranks);
    }
    if (largest > 0)
        for (const int factor : {2, 8, 64})
            ranks.push_back(largest * factor);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

QString projectionSection(const ReportProjection& projection) {
    if (projection.series.empty() && projection.error.empty()) return {};
    QString html = QStringLiteral("<section id=\"projection\">\n<h2>Projection</h2>\n");
    if (!projection.error.empty())
        return html +
               QStringLiteral("<p class=\"missing\">Cannot read the model's inputs: %1</p>\n</section>\n")
                   .arg(escaped(projection.error));
    html +=
        QStringLiteral("<p class=\"caption\">The performance model (docs/performance-model.md): the compute "
                       "time the runs measured and the gradient all-reduce predicted from the session's "
                       "sweep, less the overlap the runs measured; at the measured rank counts and 2, 8 and "
                       "64 times the largest. Speedup against the measured throughput at the smallest rank "
                       "count; step ms (band): the prediction with its band. A rank count the model "
                       "extrapolates to is marked \"extrap.\" with its notes.</p>\n");
    for (const SeriesModelInputs& series : projection.series) {
        html +=
            QStringLiteral("<h3>%1 (backend %2)</h3>\n").arg(escaped(series.label), escaped(series.backend));
        try {
            html +=
                projectionTable(series.inputs, project(series.inputs, reportProjectionRanks(series.inputs)));
        } catch (const std::exception& error) { // no sweep, no buckets: project() says what is missing
            html += QStringLiteral("<p class=\"missing\">Not projected: %1</p>\n")
                        .arg(QString::fromLocal8Bit(error.what()).toHtmlEscaped());
        }
        html += bucketSection(series);
    }
    return html + QStringLiteral("</section>\n");
}

} // namespace scalebench
