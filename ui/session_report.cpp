// One stored session as a self-contained HTML page: its facts, the results table, and the window's charts as
// inline SVG (scaling, speedup, breakdown, collectives), with MLPerf scores where the runs have them, the
// performance model's projection and the buckets' check, the verdicts, slow ranks and nodes, and each
// figure's change against a baseline session.
#include "session_report.h"

#include "breakdown_chart_view.h"
#include "breakdown_model.h"
#include "chart_export.h"
#include "collectives_chart_view.h"
#include "collectives_model.h"
#include "figure_labels.h"
#include "mlperf_score.h"
#include "run_cost.h"
#include "run_plan.h"
#include "scaling_chart_view.h"
#include "scaling_model.h"
#include "speedup_chart_view.h"
#include "verdicts.h"

#include <QApplication>
#include <QBuffer>
#include <QRegularExpression>
#include <QSaveFile>
#include <algorithm>

namespace scalebench {
namespace {

const QSize kChartSize{900, 520}; // pixels, as the SVG's view box

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

// The verdicts of the session's runs against the references of the plan it ran (none where the plan has
// none); a stored plan that no longer reads is said instead.
QString verdictsSection(const SessionRow& session, const std::vector<RunResult>& results) {
    if (!session.stored_plan.problem.empty())
        return QStringLiteral("<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<p class=\"missing\">None: %1, "
                              "so its references are not known.</p>\n</section>\n")
            .arg(escaped(session.stored_plan.problem));
    if (!session.stored_plan.plan) return {};
    const std::vector<Reference>& references = session.stored_plan.plan->references;
    if (references.empty()) return {};
    const std::string text = formatVerdicts(referenceVerdicts(results, references, session.cluster), {}, "");
    return QStringLiteral(
               "<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<pre class=\"verdicts\">%1</pre>\n</section>\n")
        .arg(escaped(text));
}

QString number(double value, int decimals) {
    return QString::number(value, 'f', decimals);
}

// A chart view as an <svg> element for inline use: QSvgGenerator's document without its XML prolog and
// DOCTYPE, and without the namespace declarations (HTML puts <svg> in SVG's namespace itself), so that the
// page names no URL at all.
QString inlineSvg(QWidget& view) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (!writeWidgetSvg(view, buffer, kChartSize, &error))
        return QStringLiteral("<p class=\"missing\">chart not drawn: %1</p>").arg(error.toHtmlEscaped());
    QString svg = QString::fromUtf8(buffer.data());
    svg.remove(0, std::max<qsizetype>(0, svg.indexOf(QStringLiteral("<svg"))));
    static const QRegularExpression namespaces(QStringLiteral("\\s+xmlns(:[A-Za-z]+)?=\"[^\"]*\""));
    svg.remove(namespaces);
    return svg;
}

QString chartFigure(QWidget& view, const QString& caption) {
    return QStringLiteral("<figure>%1<figcaption>%2</figcaption></figure>\n").arg(inlineSvg(view), caption);
}

bool haveApplication() {
    return qobject_cast<QApplication*>(QCoreApplication::instance()) != nullptr;
}

QString cell(const QString& text) {
    return QStringLiteral("<td>%1</td>").arg(text);
}

// The rows of formatResultsTable (the same figures, one <tr> per run, notes in a row below it).
QString resultsTable(const std::vector<RunResult>& results) {
    const std::vector<RunScaling> scaling = runScaling(results);
    QString html =
        QStringLiteral("<table class=\"results\">\n<thead><tr><th>run</th><th>ranks</th><th>status</th>");
    const std::vector<std::string> headers = resultsFigureHeaders();
    for (const std::string& header : headers)
        html += QStringLiteral("<th>%1</th>").arg(escaped(header));
    html += QStringLiteral("</tr></thead>\n<tbody>\n");
    const int kColumns = 3 + static_cast<int>(headers.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        html += QStringLiteral("<tr class=\"run\">") + cell(escaped(r.name)) +
                cell(QString::number(r.ranks)) + cell(storedStatusText(r.status));
        const auto note = [&](const QString& text) {
            return QStringLiteral("<td colspan=\"%1\" class=\"note\">%2</td>").arg(kColumns - 3).arg(text);
        };
        if (r.figures.steady_steps == 0 && !r.collectives.empty()) {
            double peak = 0;
            for (const auto& c : r.collectives)
                peak = std::max(peak, c.busbw_gbps);
            html += note(QStringLiteral("collective sweep: %1 sizes, peak busbw %2 GB/s")
                             .arg(r.collectives.size())
                             .arg(number(peak, 3)));
        } else if (r.figures.steady_steps == 0 && r.mlperf_time_to_train_min) {
            html += note(
                QStringLiteral("MLPerf time to train %1 (%2)")
                    .arg(escaped(formatTimeToTrain(*r.mlperf_time_to_train_min)), escaped(r.mlperf_status)));
        } else if (r.figures.steady_steps == 0) {
            html += note(QStringLiteral("(no steady-state steps)"));
        } else {
            for (const std::string& text : resultsFigureCells(r, scaling[i]))
                html += cell(escaped(text));
        }
        html += QStringLiteral("</tr>\n");
        QStringList notes;
        if (!r.requeues.empty()) notes << escaped(r.requeues);
        if (!r.error.empty()) notes << QStringLiteral("error: ") + escaped(r.error);
        if (!notes.isEmpty())
            html += QStringLiteral("<tr class=\"notes\"><td></td><td colspan=\"%1\">%2</td></tr>\n")
                        .arg(kColumns - 1)
                        .arg(notes.join(QStringLiteral("<br>")));
    }
    return html + QStringLiteral("</tbody>\n</table>\n");
}

// Each run's wall time, GPU-hours and cost at the price of the session's cluster, and their total; nothing
// without a price.
QString costSection(const GpuHourPrice& price, const std::vector<RunResult>& results) {
    if (!(price.per_gpu_hour > 0)) return {};
    const QString currency = escaped(price.currency);
    const bool to_train = std::any_of(results.begin(), results.end(), [&](const RunResult& r) {
        return runCostToTrain(r, price).has_value();
    });
    QString html =
        QStringLiteral("<section id=\"cost\">\n<h2>Cost</h2>\n<table class=\"cost\">\n<thead><tr>"
                       "<th>run</th><th>ranks</th><th>status</th><th>wall s</th><th>GPU-h</th>"
                       "<th>cost %1</th>%2</tr></thead>\n<tbody>\n")
            .arg(currency, to_train ? QStringLiteral("<th>to train %1</th>").arg(currency) : QString());
    double total_hours = 0, total_cost = 0;
    for (const RunResult& r : results) {
        const std::optional<double> hours = runGpuHours(r);
        const std::optional<double> cost = runCost(r, price);
        if (hours && cost) {
            total_hours += *hours;
            total_cost += *cost;
        }
        html += QStringLiteral("<tr class=\"run\">") + cell(escaped(r.name)) +
                cell(QString::number(r.ranks)) + cell(storedStatusText(r.status)) +
                cell(r.wall_s ? number(*r.wall_s, 1) : QStringLiteral("-")) +
                cell(hours ? number(*hours, 4) : QStringLiteral("-")) +
                cell(cost ? number(*cost, 2) : QStringLiteral("-"));
        if (to_train) {
            const std::optional<double> train = runCostToTrain(r, price);
            html += cell(train ? number(*train, 2) : QStringLiteral("-"));
        }
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("<tr class=\"total\"><td>total</td><td></td><td></td><td></td>") +
            cell(number(total_hours, 4)) + cell(number(total_cost, 2)) + QStringLiteral("</tr>\n");
    return html +
           QStringLiteral("</tbody>\n</table>\n<p class=\"caption\">cost: GPU-hours x %1 %2 per "
                          "GPU-hour (the cluster's price_per_gpu_hour; on CPU runs a GPU is a rank); "
                          "GPU-hours: ranks x wall time (the run's own, from its summary, else from its "
                          "job's submission to its end)%3.</p>\n</section>\n")
               .arg(number(price.per_gpu_hour, 2), currency,
                    to_train ? QStringLiteral("; to train: ranks x the time to the run's target (time to "
                                              "accuracy, or MLPerf's time to train) x the price")
                             : QString());
}

// Per series: throughput against ranks and the speedup chart, as the scaling tab draws them.
QString scalingSection(const std::vector<ScalingPoint>& points) {
    std::vector<std::string> labels;
    for (const ScalingPoint& p : points)
        if (p.throughput.mean > 0 && std::find(labels.begin(), labels.end(), p.label) == labels.end())
            labels.push_back(p.label);
    if (labels.empty()) return {};
    QString html = QStringLiteral("<section id=\"scaling\">\n<h2>Scaling</h2>\n");
    for (const std::string& label : labels) {
        ScalingModel model;
        model.setPoints(points, label);
        ScalingChartView throughput(&model);
        SpeedupChartView speedup(&model);
        html += QStringLiteral("<h3>%1</h3>\n").arg(escaped(label));
        html += chartFigure(throughput, QStringLiteral("Throughput (samples/s) against ranks: measured mean "
                                                       "with its two-sigma band, and ideal linear scaling"));
        html += chartFigure(speedup, QStringLiteral("Speedup X(N)/X(N0) with two-sigma error bars, ideal "
                                                    "speedup, and scaling efficiency"));
    }
    return html + QStringLiteral("</section>\n");
}

// One breakdown chart per workload with steady-state steps.
QString breakdownSection(const std::vector<RunResult>& results) {
    std::vector<std::string> workloads;
    for (const RunResult& r : results)
        if (r.figures.steady_steps > 0 &&
            std::find(workloads.begin(), workloads.end(), r.workload) == workloads.end())
            workloads.push_back(r.workload);
    if (workloads.empty()) return {};
    QString html = QStringLiteral("<section id=\"breakdown\">\n<h2>Step breakdown</h2>\n");
    for (const std::string& workload : workloads) {
        BreakdownModel model;
        model.setResults(results, QString::fromStdString(workload));
        if (model.rowCount() == 0) continue;
        BreakdownChartView view(&model);
        html += QStringLiteral("<h3>%1</h3>\n").arg(escaped(workload));
        html += chartFigure(view, QStringLiteral("Mean ms per step by part at each rank count, and the "
                                                 "communication hidden under compute beside each stack"));
    }
    return html + QStringLiteral("</section>\n");
}

QString collectivesSection(const std::vector<RunResult>& results) {
    if (std::none_of(results.begin(), results.end(),
                     [](const RunResult& r) { return !r.collectives.empty(); }))
        return {};
    CollectivesModel model;
    model.setResults(results);
    CollectivesChartView view(&model);
    return QStringLiteral("<section id=\"collectives\">\n<h2>Collectives</h2>\n") +
           chartFigure(view,
                       QStringLiteral("Bus bandwidth (GB/s) against message size, one line per sweep")) +
           QStringLiteral("</section>\n");
}

QString mlperfSection(const std::vector<ScalingPoint>& points) {
    if (std::none_of(points.begin(), points.end(),
                     [](const ScalingPoint& p) { return p.mlperf.has_value(); }))
        return {};
    QString html = QStringLiteral(
        "<section id=\"mlperf\">\n<h2>MLPerf scores</h2>\n<table class=\"mlperf\">\n<thead><tr><th>benchmark"
        "</th><th>ranks</th><th>runs</th><th>converged</th><th>required</th><th>score</th><th>speedup</th>"
        "<th>verdict</th></tr></thead>\n<tbody>\n");
    for (const ScalingPoint& p : points) {
        if (!p.mlperf) continue;
        const MlperfScore& m = *p.mlperf;
        html +=
            QStringLiteral("<tr>") + cell(escaped(m.benchmark)) + cell(QString::number(p.ranks)) +
            cell(QString::number(m.runs)) + cell(QString::number(m.converged)) +
            cell(m.required ? QString::number(*m.required) : QStringLiteral("-")) +
            // The score as the summarizer keeps it, to six decimals (figure_registry.h), not a run's two.
            cell(m.score_min ? escaped(terseValue(Figure::MlperfScore, *m.score_min) + " min")
                             : QStringLiteral("-")) +
            cell(p.mlperf_speedup ? number(*p.mlperf_speedup, 2) + QLatin1Char('x') : QStringLiteral("-")) +
            cell(escaped(m.verdict)) + QStringLiteral("</tr>\n");
    }
    return html +
           QStringLiteral("</tbody>\n</table>\n<p class=\"caption\">Time to train in minutes, run_start "
                          "to run_stop; the score is the olympic average MLPerf's result summarizer "
                          "computes.</p>\n</section>\n");
}

// A figure's value as the verdicts compare it: enough digits for a change of a few per cent to show.
QString figureValue(double value) {
    return QString::number(value, 'g', 5);
}

QString percent(double fraction) {
    return QString::asprintf("%+.1f %%", fraction * 100);
}

// Every figure regressionVerdicts judges, one row each: the baseline's median and this session's, the
// relative change with its 95 % interval, the repeats of each side, the verdict; regressions marked.
QString regressionSection(const SessionRow& session, const std::vector<RunResult>& results,
                          const ReportBaseline& baseline) {
    QString html = QStringLiteral("<section id=\"regressions\">\n");
    if (!baseline.session) {
        return html +
               QStringLiteral("<h2>Regressions against %1</h2>\n<p class=\"missing\">No baseline: no earlier "
                              "session of '%2' on %3 ended ok.</p>\n</section>\n")
                   .arg(escaped(baseline.asked), escaped(session.name),
                        session.cluster.empty() ? QStringLiteral("this machine") : escaped(session.cluster));
    }
    const SessionRow& base = *baseline.session;
    const double threshold = session.stored_plan.plan ? session.stored_plan.plan->regression_threshold
                                                      : RunPlan{}.regression_threshold;
    const std::vector<RegressionVerdict> verdicts = regressionVerdicts(baseline.results, results, threshold);
    html += QStringLiteral("<h2>Regressions against session %1: %2 (%3)</h2>\n")
                .arg(base.id)
                .arg(escaped(base.name), escaped(base.started_at));
    if (!session.stored_plan.problem.empty())
        html += QStringLiteral("<p class=\"missing\">Judged at the default threshold, %1 %: %2.</p>\n")
                    .arg(100 * threshold)
                    .arg(escaped(session.stored_plan.problem));
    if (verdicts.empty())
        return html + QStringLiteral("<p>No figure judged: the baseline has no successful run of the same "
                                     "series at the same rank count.</p>\n</section>\n");
    const auto regressions = std::count_if(verdicts.begin(), verdicts.end(),
                                           [](const RegressionVerdict& v) { return v.regression; });
    const auto improvements = std::count_if(verdicts.begin(), verdicts.end(),
                                            [](const RegressionVerdict& v) { return v.improvement; });
    html += QStringLiteral("<p class=\"%1\">%2 of %3 judged figures regressed, %4 improved.</p>\n")
                .arg(regressions > 0 ? QStringLiteral("fail") : QStringLiteral("pass"))
                .arg(regressions)
                .arg(verdicts.size())
                .arg(improvements);
    html += QStringLiteral(
        "<table class=\"regressions\">\n<thead><tr><th>series</th><th>ranks</th><th>figure</th><th>baseline"
        "</th><th>this</th><th>change</th><th>95 % interval</th><th>repeats</th><th>verdict</th></tr>"
        "</thead>\n<tbody>\n");
    for (const RegressionVerdict& v : verdicts) {
        const ChangeVerdict& c = v.change;
        const bool told = c.kind != ChangeKind::CannotTell;
        const QString verdict = v.regression    ? QStringLiteral("regression")
                                : v.improvement ? QStringLiteral("improvement")
                                : told          ? QStringLiteral("noise")
                                                : QStringLiteral("cannot tell");
        html += QStringLiteral("<tr class=\"%1\">")
                    .arg(QString(verdict).replace(QLatin1Char(' '), QLatin1Char('-'))) +
                cell(escaped(v.series)) + cell(QString::number(v.ranks)) + cell(escaped(v.figure)) +
                cell(c.repeats_a > 0 ? figureValue(c.median_a) : QStringLiteral("-")) +
                cell(c.repeats_b > 0 ? figureValue(c.median_b) : QStringLiteral("-")) +
                cell(told ? percent(c.relative) : QStringLiteral("-")) +
                cell(told ? QStringLiteral("[%1, %2]").arg(percent(c.low), percent(c.high))
                          : QStringLiteral("-")) +
                cell(QStringLiteral("%1 vs %2").arg(c.repeats_a).arg(c.repeats_b)) +
                cell(v.regression ? QStringLiteral("<strong>REGRESSION</strong>") : verdict) +
                QStringLiteral("</tr>\n");
    }
    return html + QStringLiteral(
                      "</tbody>\n</table>\n<p class=\"caption\">Baseline and this: the median over the "
                      "successful repeats of each side; change: (this - baseline) / baseline of the "
                      "medians, with its 95 % percentile bootstrap interval (%1 resamples). A change is "
                      "called only where the interval lies wholly beyond %2 % (the plan's "
                      "regression_threshold), a regression where it goes the worse way; with fewer than %3 "
                      "repeats a side it cannot tell.</p>\n</section>\n")
                      .arg(kBootstrapResamples)
                      .arg(number(threshold * 100, 0))
                      .arg(kLeastRepeatsForChange);
}

// Per training run: its slow ranks and nodes (RunResult.slow_ranks), "none flagged", or why it cannot tell.
QString slowRanksSection(const std::vector<RunResult>& results) {
    std::vector<const RunResult*> runs;
    for (const RunResult& r : results)
        if (r.figures.steady_steps > 0 || !r.slow_ranks.compute_s.empty()) runs.push_back(&r);
    if (runs.empty()) return {};
    const SlowRankRule rule;
    QString html = QStringLiteral(
        "<section id=\"slow-ranks\">\n<h2>Slow ranks and nodes</h2>\n<table class=\"slow-ranks\">\n<thead>"
        "<tr><th>run</th><th>ranks</th><th>slow rank</th><th>node</th><th>compute ms</th><th>ranks' median ms"
        "</th><th>threshold ms</th><th>finding</th></tr></thead>\n<tbody>\n");
    const auto ms = [](double seconds) { return number(seconds * 1e3, 2); };
    for (const RunResult* r : runs) {
        const SlowRankFinding& f = r->slow_ranks;
        const QString head = cell(escaped(r->name)) + cell(QString::number(r->ranks));
        if (!f.decidable) {
            const QString why =
                r->ranks < 3
                    ? QStringLiteral("cannot tell: %1 rank%2, fewer than 3: nothing to compare against")
                          .arg(r->ranks)
                          .arg(r->ranks == 1 ? QString() : QStringLiteral("s"))
                : f.compute_s.empty()
                    ? QStringLiteral("cannot tell: no per-rank times stored")
                    : QStringLiteral("cannot tell: per-rank times of %1 ranks only, fewer than 3")
                          .arg(f.compute_s.size());
            html += QStringLiteral("<tr class=\"undecided\">") + head +
                    QStringLiteral("<td colspan=\"5\" class=\"note\">%1</td>").arg(why) +
                    QStringLiteral("<td>-</td></tr>\n");
            continue;
        }
        if (f.slow_ranks.empty()) {
            html += QStringLiteral("<tr class=\"none\">") + head + cell(QStringLiteral("-")) +
                    cell(QStringLiteral("-")) + cell(QStringLiteral("-")) + cell(ms(f.ranks_median_s)) +
                    cell(ms(f.threshold_s)) + cell(QStringLiteral("none flagged")) +
                    QStringLiteral("</tr>\n");
            continue;
        }
        for (const SlowRank& slow : f.slow_ranks)
            html += QStringLiteral("<tr class=\"slow\">") + head + cell(QString::number(slow.rank)) +
                    cell(slow.host.empty() ? QStringLiteral("-") : escaped(slow.host)) +
                    cell(ms(slow.compute_s)) + cell(ms(f.ranks_median_s)) + cell(ms(f.threshold_s)) +
                    cell(QStringLiteral("<strong>slow</strong> (%1 over the median)")
                             .arg(percent(slow.compute_s / f.ranks_median_s - 1))) +
                    QStringLiteral("</tr>\n");
        if (!f.slow_nodes.empty()) {
            QStringList nodes;
            for (const std::string& node : f.slow_nodes)
                nodes << escaped(node);
            html += QStringLiteral(
                        "<tr class=\"slow-node\"><td></td><td colspan=\"7\" class=\"note\">slow node%1: "
                        "<strong>%2</strong></td></tr>\n")
                        .arg(nodes.size() == 1 ? QString() : QStringLiteral("s"),
                             nodes.join(QStringLiteral(", ")));
        }
    }
    return html +
           QStringLiteral("</tbody>\n</table>\n<p class=\"caption\">The rule: each rank's compute time "
                          "(data, forward, backward, optimizer, without waiting for the others) is its "
                          "median over the run's steady-state steps, m<sub>r</sub>; M is the median of "
                          "the m<sub>r</sub> over the ranks and MAD the median of |m<sub>r</sub> - M|. A "
                          "rank is slow where m<sub>r</sub> &gt; M + %1 x %2 x MAD and m<sub>r</sub> &gt; "
                          "M x %3 (the threshold column is the larger of the two); a node is slow where "
                          "one of its ranks is. With fewer than 3 ranks there is no majority to compare "
                          "against.</p>\n</section>\n")
               .arg(number(rule.k, 0))
               .arg(SlowRankRule::kMadToSigma)
               .arg(number(1 + rule.min_margin, 2));
}

// What ran: the entries every run shares, then each run's own; multi-line values (job script, plan, GPUs) as
// preformatted text.
QString capsuleSection(const std::vector<RunCapsule>& capsules) {
    if (capsules.empty()) return {};
    const SessionCapsule capsule = sessionCapsule(capsules);
    const auto rows = [](const std::vector<CapsuleEntry>& entries) {
        QString out;
        for (const CapsuleEntry& e : entries) {
            const bool block = e.value.find('\n') != std::string::npos;
            out += QStringLiteral("<tr><th>%1</th><td class=\"note\">%2</td></tr>\n")
                       .arg(escaped(e.key),
                            block ? QStringLiteral("<pre class=\"plan\">%1</pre>").arg(escaped(e.value))
                                  : escaped(e.value));
        }
        return out;
    };
    QString html =
        QStringLiteral("<section id=\"capsule\">\n<h2>What ran</h2>\n<p class=\"caption\">The runs' "
                       "capsules: job script (its run's and session's folders written &lt;run "
                       "folder&gt; and &lt;session folder&gt;), the hash of the engine's sources, versions, "
                       "GPUs, container, nodes, ranks' hosts, NCCL/UCX/OMPI environment and the plan.</p>\n");
    if (!capsule.shared.empty())
        html += QStringLiteral(
                    "<h3>Every run (%1)</h3>\n<table class=\"capsule\">\n<tbody>\n%2</tbody>\n</table>\n")
                    .arg(capsules.size())
                    .arg(rows(capsule.shared));
    for (const auto& [run, entries] : capsule.per_run)
        html += QStringLiteral("<h3>%1</h3>\n<table class=\"capsule\">\n<tbody>\n%2</tbody>\n</table>\n")
                    .arg(escaped(run), rows(entries));
    return html + QStringLiteral("</section>\n");
}

const char* const kStyle = R"(body{font-family:sans-serif;margin:2em auto;max-width:1100px;color:#222}
table{border-collapse:collapse;font-size:0.85em;margin:1em 0}
th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:right}
th:first-child,td:first-child,td.note,tr.notes td{text-align:left}
thead th{background:#eee}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:0.2em 1em}
dl.facts dt{font-weight:bold}
dl.facts dd{margin:0}
figure{margin:1em 0}
figure svg{width:100%;max-width:900px;height:auto}
figcaption,.caption{font-size:0.85em;color:#555}
pre.plan{background:#f6f6f6;padding:0.5em;font-size:0.8em;overflow-x:auto;margin:0}
table.capsule th{text-align:left;vertical-align:top;white-space:nowrap}
tr.regression td,tr.slow td,tr.slow-node td,p.fail{background:#fdd;color:#900}
tr.improvement td{background:#dfd}
.missing{color:#a00})";

} // namespace

QString sessionReportHtml(const SessionRow& session, const std::vector<RunResult>& results,
                          const std::optional<ReportBaseline>& baseline,
                          const std::vector<RunCapsule>& capsules, const ReportProjection& projection) {
    const QString title =
        QStringLiteral("scalebench session %1: %2").arg(session.id).arg(escaped(session.name));
    QString html = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                                  "<title>%1</title>\n<style>\n%2\n</style>\n</head>\n<body>\n<h1>%1</h1>\n")
                       .arg(title, QString::fromLatin1(kStyle));
    const auto fact = [](const QString& name, const QString& value) {
        return QStringLiteral("<dt>%1</dt><dd>%2</dd>\n").arg(name, value);
    };
    html += QStringLiteral("<dl class=\"facts\">\n") + fact(QStringLiteral("name"), escaped(session.name)) +
            fact(QStringLiteral("cluster"),
                 session.cluster.empty() ? QStringLiteral("this machine") : escaped(session.cluster)) +
            fact(QStringLiteral("started"), escaped(session.started_at)) +
            fact(QStringLiteral("finished"),
                 session.finished_at.empty() ? QStringLiteral("-") : escaped(session.finished_at)) +
            fact(QStringLiteral("status"), storedStatusText(session.status)) +
            fact(QStringLiteral("runs"), QString::number(results.size())) + QStringLiteral("</dl>\n");
    if (!session.plan_text.empty())
        html += QStringLiteral("<details><summary>Plan</summary>\n<pre class=\"plan\">%1</pre>\n</details>\n")
                    .arg(escaped(session.plan_text));

    html += QStringLiteral("<section id=\"results\">\n<h2>Results</h2>\n") + resultsTable(results);
    const StepTimeConvention convention =
        results.empty() ? StepTimeConvention::SteadyStateMedian : results.front().figures.convention;
    html +=
        QStringLiteral("<p class=\"caption\">samples/s: %1; step and its parts: mean ms per step; comm%: "
                       "exposed all-reduce / step time; speedup S(N) = X(N)/X(N0) against the mean at the "
                       "smallest rank count of the run's series, efficiency E(N) = S(N) N0/N.</p>\n"
                       "</section>\n")
            .arg(escaped(describeConvention(convention)));
    html += costSection(sessionPrice(session), results);

    const std::vector<ScalingPoint> points = sessionScaling(results);
    if (haveApplication()) {
        html += scalingSection(points) + breakdownSection(results) + collectivesSection(results);
    } else {
        html += QStringLiteral("<p class=\"missing\">Charts need a QApplication; none was running.</p>\n");
    }
    html += mlperfSection(points);
    html += projectionSection(projection);
    html += verdictsSection(session, results);
    if (baseline) html += regressionSection(session, results, *baseline);
    html += slowRanksSection(results);
    html += capsuleSection(capsules);
    return html + QStringLiteral("</body>\n</html>\n");
}

bool writeSessionReport(const SessionRow& session, const std::vector<RunResult>& results, const QString& path,
                        QString* error, const std::optional<ReportBaseline>& baseline,
                        const std::vector<RunCapsule>& capsules, const ReportProjection& projection) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(sessionReportHtml(session, results, baseline, capsules, projection).toUtf8()) < 0 ||
        !file.commit()) {
        if (error) *error = QStringLiteral("could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace scalebench
