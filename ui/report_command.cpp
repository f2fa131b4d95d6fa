// The report command: a stored session, its baseline and projection, written as one HTML page
// (report_command.h).
#include "report_command.h"

#include "report_inputs.h"
#include "session_report.h"

#include <optional>
#include <stdexcept>

namespace scalebench {

int reportSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        const auto convention = options.step_time == "last-step" ? StepTimeConvention::LastStep
                                                                 : StepTimeConvention::SteadyStateMedian;
        const ReportInputs in =
            readReportInputs(options.db, options.report_session, options.baseline, convention);
        QString error;
        if (!writeSessionReport(in.session, in.results, QString::fromStdString(options.report_file.string()),
                                &error, in.baseline, in.capsules, in.projection))
            throw std::runtime_error(error.toStdString());
        out << "report of session " << in.session.id << " (" << in.session.name << ", " << in.results.size()
            << " runs";
        const std::optional<ReportBaseline>& baseline = in.baseline;
        if (baseline && baseline->session)
            out << ", against session " << baseline->session->id << " (" << baseline->session->name << ")";
        else if (baseline)
            out << "; no baseline: 'last' found no earlier session of the plan that ended ok";
        out << "): " << options.report_file.string() << "\n";
        return 0;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace scalebench
