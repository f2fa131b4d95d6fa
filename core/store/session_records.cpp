// A run's metric records in the session store: written in one transaction a batch, read back by kind.
#include "session_store.h"
#include "sqlite_rows.h"

namespace scalebench {
using namespace sqlite_rows;
namespace {

// Steps a bound statement that writes one row; false where SQLite refused it (its message is still there).
bool writeRow(sqlite3_stmt* s) {
    if (sqlite3_step(s) != SQLITE_DONE) return false;
    sqlite3_reset(s);
    return true;
}

bool writeRankTimes(sqlite3_stmt* s, std::int64_t run_id, const RankTimesRecord& t) {
    for (std::size_t rank = 0; rank < t.step_s.size(); ++rank) {
        bindAll(s, run_id, t.step, static_cast<int>(rank), t.step_s[rank], t.compute_s[rank]);
        if (!writeRow(s)) return false;
    }
    return true;
}

bool writeBucketTimes(sqlite3_stmt* s, std::int64_t run_id, const BucketTimesRecord& b) {
    for (std::size_t bucket = 0; bucket < b.bytes.size(); ++bucket) {
        bindAll(s, run_id, b.step, static_cast<std::int64_t>(bucket), b.bytes[bucket], b.start_s[bucket],
                b.end_s[bucket]);
        if (!writeRow(s)) return false;
    }
    return true;
}

bool writeDeviceCheckItems(sqlite3_stmt* s, std::int64_t run_id, const DeviceCheckRecord& d) {
    for (std::size_t i = 0; i < d.checks.size(); ++i) {
        const DeviceCheck& check = d.checks[i];
        bindAll(s, run_id, static_cast<std::int64_t>(i), check.name, check.passed ? 1 : 0, check.figure,
                check.value, check.tolerance);
        if (!writeRow(s)) return false;
    }
    return true;
}

} // namespace

void SessionStore::appendRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    if (records.empty()) return;
    transaction([&] { insertRecords(run_id, records); });
}

void SessionStore::replaceRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    transaction([&] {
        deleteRecords(run_id);
        insertRecords(run_id, records);
    });
}

void SessionStore::deleteRecords(std::int64_t run_id) {
    for (const char* table : {"steps", "evals", "rank_times", "bucket_times", "collectives", "run_errors",
                              "device_checks", "device_check_items"})
        execute(std::string("DELETE FROM ") + table + " WHERE run_id = " + std::to_string(run_id));
}

void SessionStore::insertRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    auto step = prepare(
        "INSERT OR REPLACE INTO steps VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
        "?14, ?15)");
    auto rank_times = prepare("INSERT OR REPLACE INTO rank_times VALUES (?1, ?2, ?3, ?4, ?5)");
    auto bucket_times = prepare("INSERT OR REPLACE INTO bucket_times VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto eval = prepare("INSERT OR REPLACE INTO evals VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto header = prepare("UPDATE runs SET header_json = ?1 WHERE id = ?2");
    auto summary = prepare("UPDATE runs SET summary_json = ?1 WHERE id = ?2");
    auto error = prepare("INSERT INTO run_errors VALUES (?1, ?2, ?3)");
    auto collective = prepare("INSERT OR REPLACE INTO collectives VALUES "
                              "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
    auto device_check = prepare("INSERT OR REPLACE INTO device_checks VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto device_check_items = prepare("DELETE FROM device_check_items WHERE run_id = ?1");
    auto device_check_item = prepare("INSERT INTO device_check_items VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    for (const auto& record : records) {
        sqlite3_stmt* s = nullptr;
        if (auto* r = std::get_if<StepRecord>(&record)) {
            s = step.get();
            bindAll(s, run_id, r->step, r->loss, r->samples_per_s, r->step_s, r->data_s, r->forward_s,
                    r->backward_s, r->allreduce_s, r->optimizer_s, r->elapsed_s, r->comm_hidden_s,
                    r->tokens_per_s, r->model_flops_per_s, r->mfu);
        } else if (auto* e = std::get_if<EvalRecord>(&record)) {
            s = eval.get();
            bindAll(s, run_id, e->step, e->metric, e->value, e->loss, e->elapsed_s);
        } else if (auto* h = std::get_if<HeaderRecord>(&record)) {
            s = header.get();
            bindAll(s, h->json, run_id);
        } else if (auto* m = std::get_if<SummaryRecord>(&record)) {
            s = summary.get();
            bindAll(s, m->json, run_id);
        } else if (auto* c = std::get_if<CollectiveRecord>(&record)) {
            s = collective.get();
            bindAll(s, run_id, c->backend, c->collective, c->op, c->dtype, c->in_place ? 1 : 0, c->bytes,
                    c->elements, c->ranks, c->repetitions, c->time_s, c->algbw_gbps, c->busbw_gbps,
                    c->correct ? 1 : 0, c->tool, c->checked ? 1 : 0);
        } else if (auto* t = std::get_if<RankTimesRecord>(&record)) {
            if (!writeRankTimes(rank_times.get(), run_id, *t))
                fail("cannot store rank times of run " + std::to_string(run_id));
            continue;
        } else if (auto* b = std::get_if<BucketTimesRecord>(&record)) {
            if (!writeBucketTimes(bucket_times.get(), run_id, *b))
                fail("cannot store bucket times of run " + std::to_string(run_id));
            continue;
        } else if (auto* d = std::get_if<DeviceCheckRecord>(&record)) {
            // One verdict a run: a record read again replaces the stored one and its checks.
            bindAll(device_check_items.get(), run_id);
            if (!writeRow(device_check_items.get()))
                fail("cannot replace the device check of run " + std::to_string(run_id));
            if (!writeDeviceCheckItems(device_check_item.get(), run_id, *d))
                fail("cannot store the device check of run " + std::to_string(run_id));
            s = device_check.get();
            bindAll(s, run_id, d->workload, d->device, d->steps, d->verdict, d->ranks_passed ? 1 : 0);
        } else if (auto* x = std::get_if<ErrorRecord>(&record)) {
            s = error.get();
            bindAll(s, run_id, x->rank, x->message);
        }
        if (sqlite3_step(s) != SQLITE_DONE) fail("cannot store a record of run " + std::to_string(run_id));
        sqlite3_reset(s);
    }
}

std::vector<StepRecord> SessionStore::steps(std::int64_t run_id) const {
    auto s = prepare("SELECT step, loss, samples_per_s, step_s, data_s, forward_s, backward_s, allreduce_s, "
                     "optimizer_s, elapsed_s, comm_hidden_s, tokens_per_s, model_flops_per_s, mfu FROM steps "
                     "WHERE run_id = ?1 ORDER BY step");
    bindAll(s.get(), run_id);
    return readRows<StepRecord>(s.get(), [](sqlite3_stmt* q) {
        StepRecord r;
        r.step = sqlite3_column_int64(q, 0);
        double* parts[] = {&r.loss,      &r.samples_per_s, &r.step_s,       &r.data_s,
                           &r.forward_s, &r.backward_s,    &r.allreduce_s,  &r.optimizer_s,
                           &r.elapsed_s, &r.comm_hidden_s, &r.tokens_per_s, &r.model_flops_per_s};
        for (int i = 0; i < 12; ++i)
            *parts[i] = sqlite3_column_double(q, i + 1);
        if (sqlite3_column_type(q, 13) != SQLITE_NULL) r.mfu = sqlite3_column_double(q, 13);
        return r;
    });
}

std::vector<EvalRecord> SessionStore::evals(std::int64_t run_id) const {
    auto s = prepare(
        "SELECT step, metric, value, loss, elapsed_s FROM evals WHERE run_id = ?1 ORDER BY step, metric");
    bindAll(s.get(), run_id);
    return readRows<EvalRecord>(s.get(), [](sqlite3_stmt* q) -> EvalRecord {
        return {sqlite3_column_int64(q, 0), columnText(q, 1), sqlite3_column_double(q, 2),
                sqlite3_column_double(q, 3), sqlite3_column_double(q, 4)};
    });
}

std::vector<CollectiveRecord> SessionStore::collectives(std::int64_t run_id) const {
    auto s = prepare(
        "SELECT collective, dtype, elements, bytes, ranks, repetitions, time_s, algbw_gbps, "
        "busbw_gbps, correct, backend, op, in_place, tool, checked FROM collectives WHERE run_id = ?1 "
        "ORDER BY backend, collective, op, dtype, in_place, bytes");
    bindAll(s.get(), run_id);
    return readRows<CollectiveRecord>(s.get(), [](sqlite3_stmt* q) {
        CollectiveRecord c{columnText(q, 0), columnText(q, 1), columnText(q, 10), columnText(q, 11),
                           sqlite3_column_int(q, 12) != 0};
        c.elements = sqlite3_column_int64(q, 2);
        c.bytes = sqlite3_column_int64(q, 3);
        c.ranks = sqlite3_column_int(q, 4);
        c.repetitions = sqlite3_column_int(q, 5);
        c.time_s = sqlite3_column_double(q, 6);
        c.algbw_gbps = sqlite3_column_double(q, 7);
        c.busbw_gbps = sqlite3_column_double(q, 8);
        c.correct = sqlite3_column_int(q, 9) != 0;
        c.tool = columnText(q, 13);
        c.checked = sqlite3_column_int(q, 14) != 0;
        return c;
    });
}

std::vector<RankTimesRecord> SessionStore::rankTimes(std::int64_t run_id) const {
    auto s =
        prepare("SELECT step, rank, step_s, compute_s FROM rank_times WHERE run_id = ?1 ORDER BY step, rank");
    bindAll(s.get(), run_id);
    std::vector<RankTimesRecord> rows;
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        const std::int64_t step = sqlite3_column_int64(s.get(), 0);
        if (rows.empty() || rows.back().step != step) rows.push_back({step, {}, {}});
        rows.back().step_s.push_back(sqlite3_column_double(s.get(), 2));
        rows.back().compute_s.push_back(sqlite3_column_double(s.get(), 3));
    }
    return rows;
}

std::vector<BucketTimesRecord> SessionStore::bucketTimes(std::int64_t run_id) const {
    auto s = prepare(
        "SELECT step, bytes, start_s, end_s FROM bucket_times WHERE run_id = ?1 ORDER BY step, bucket");
    bindAll(s.get(), run_id);
    std::vector<BucketTimesRecord> rows;
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        const std::int64_t step = sqlite3_column_int64(s.get(), 0);
        if (rows.empty() || rows.back().step != step) rows.push_back({step, {}, {}, {}});
        rows.back().bytes.push_back(sqlite3_column_int64(s.get(), 1));
        rows.back().start_s.push_back(sqlite3_column_double(s.get(), 2));
        rows.back().end_s.push_back(sqlite3_column_double(s.get(), 3));
    }
    return rows;
}

std::optional<DeviceCheckRecord> SessionStore::deviceCheck(std::int64_t run_id) const {
    auto s =
        prepare("SELECT workload, device, steps, verdict, ranks_passed FROM device_checks WHERE run_id = ?1");
    bindAll(s.get(), run_id);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return std::nullopt;
    DeviceCheckRecord d{columnText(s.get(), 0), columnText(s.get(), 1), sqlite3_column_int64(s.get(), 2),
                        columnText(s.get(), 3), sqlite3_column_int(s.get(), 4) != 0};
    auto items = prepare("SELECT name, passed, figure, value, tolerance FROM device_check_items "
                         "WHERE run_id = ?1 ORDER BY position");
    bindAll(items.get(), run_id);
    const auto optional = [](sqlite3_stmt* q, int column) -> std::optional<double> {
        if (sqlite3_column_type(q, column) == SQLITE_NULL) return std::nullopt;
        return sqlite3_column_double(q, column);
    };
    d.checks = readRows<DeviceCheck>(items.get(), [&](sqlite3_stmt* q) -> DeviceCheck {
        return {columnText(q, 0), sqlite3_column_int(q, 1) != 0, columnText(q, 2), optional(q, 3),
                optional(q, 4)};
    });
    return d;
}

} // namespace scalebench
