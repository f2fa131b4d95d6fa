# Writes the MLLOG fixtures of tests/core/test_mllog_reader.cpp with mlperf-logging's own mllog API, at fixed times.
import logging
import os
import sys

from mlperf_logging import mllog
from mlperf_logging.mllog import constants

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1700000000000  # ms since the epoch, so the files are the same on every run


def logger_to(name):
    path = os.path.join(HERE, name)
    if os.path.exists(path):
        os.remove(path)
    log = logging.getLogger("mllog_fixture_" + name)
    log.propagate = False
    log.setLevel(logging.INFO)
    log.handlers.clear()
    log.addHandler(logging.FileHandler(path))
    return mllog.mllog.MLLogger(logger=log, root_dir=HERE)


def submission(ml, t, benchmark, status):
    ml.event(constants.SUBMISSION_BENCHMARK, benchmark, time_ms=t)
    ml.event(constants.SUBMISSION_ORG, "scalebench", time_ms=t)
    ml.event(constants.SUBMISSION_DIVISION, constants.CLOSED, time_ms=t)
    ml.event(constants.SUBMISSION_STATUS, status, time_ms=t)
    ml.event(constants.SUBMISSION_PLATFORM, "1xDGX-H100", time_ms=t)
    ml.event(constants.SUBMISSION_POC_NAME, "Test Person", time_ms=t)


def bert(name="bert_success.log", t=T0, eval_gap_ms=95321, status=None):
    ml = logger_to(name)
    ml.event(constants.CACHE_CLEAR, True, time_ms=t)
    ml.start(constants.INIT_START, time_ms=t + 1)
    submission(ml, t + 2, constants.BERT, constants.ONPREM)
    ml.event(constants.SEED, 12345, time_ms=t + 3)
    ml.event(constants.GLOBAL_BATCH_SIZE, 448, time_ms=t + 4)
    ml.event(constants.OPT_BASE_LR, 0.00096, time_ms=t + 4)
    ml.event(constants.OPT_LAMB_EPSILON, 1e-6, time_ms=t + 4)
    ml.event(constants.GRADIENT_ACCUMULATION_STEPS, 1, time_ms=t + 4)
    ml.event(constants.MAX_SEQUENCE_LENGTH, 512, time_ms=t + 4)
    ml.event(constants.EVAL_SAMPLES, 10000, time_ms=t + 4)
    ml.end(constants.INIT_STOP, time_ms=t + 61234)
    run_start = t + 61240
    ml.start(constants.RUN_START, time_ms=run_start)
    ml.start(constants.BLOCK_START, metadata={constants.FIRST_EPOCH_NUM: 0, constants.EPOCH_COUNT: 1,
                                              constants.SAMPLES_COUNT: 0}, time_ms=run_start + 5)
    accuracies = [0.5861, 0.6904, 0.7213]
    for i, accuracy in enumerate(accuracies):
        samples = (i + 1) * 150528
        now = run_start + (i + 1) * eval_gap_ms
        ml.start(constants.EVAL_START, metadata={constants.EPOCH_NUM: i + 1, constants.SAMPLES_COUNT: samples},
                 time_ms=now)
        ml.event(constants.EVAL_ACCURACY, accuracy,
                 metadata={constants.EPOCH_NUM: i + 1, constants.SAMPLES_COUNT: samples}, time_ms=now + 2345)
        ml.end(constants.EVAL_STOP, metadata={constants.EPOCH_NUM: i + 1, constants.SAMPLES_COUNT: samples},
               time_ms=now + 2346)
    end = run_start + 3 * eval_gap_ms + 2400
    ml.end(constants.BLOCK_STOP, metadata={constants.FIRST_EPOCH_NUM: 0, constants.SAMPLES_COUNT: 3 * 150528},
           time_ms=end)
    ml.event(constants.TRAIN_SAMPLES, 3 * 150528, time_ms=end + 1)
    ml.end(constants.RUN_STOP, metadata={constants.STATUS: status or constants.SUCCESS,
                                         constants.SAMPLES_COUNT: 3 * 150528},
           time_ms=end + 7)


# The ten runs a bert result needs (MLPerf Training's rules), run 7 aborted: bert-repeats/run-K.log, each with
# its own time to train (the gap between evaluations varies).
BERT_REPEAT_GAPS_MS = [95321, 97012, 94108, 96550, 99873, 95990, 93877, 98101, 96234, 97555]


def bert_repeats():
    os.makedirs(os.path.join(HERE, "bert-repeats"), exist_ok=True)
    for k, gap in enumerate(BERT_REPEAT_GAPS_MS):
        bert(os.path.join("bert-repeats", "run-%d.log" % k), T0 + 20000000 + k * 1000000, gap,
             constants.ABORTED if k == 7 else None)


def resnet():
    ml = logger_to("resnet_aborted.log")
    t = T0 + 10000000
    ml.event(constants.CACHE_CLEAR, True, time_ms=t)
    ml.start(constants.INIT_START, time_ms=t + 1)
    submission(ml, t + 2, constants.RESNET, constants.ONPREM)
    ml.event(constants.GLOBAL_BATCH_SIZE, 3264, time_ms=t + 3)
    ml.event(constants.OPT_NAME, constants.LARS, time_ms=t + 3)
    ml.event(constants.LARS_OPT_BASE_LEARNING_RATE, 10.5, time_ms=t + 3)
    ml.event(constants.LARS_OPT_END_LR, 0.0001, time_ms=t + 3)
    ml.event(constants.TRAIN_SAMPLES, 1281167, time_ms=t + 3)
    ml.end(constants.INIT_STOP, time_ms=t + 45000)
    run_start = t + 45017
    ml.start(constants.RUN_START, time_ms=run_start)
    for block in range(2):
        first = block * 4
        now = run_start + 10 + block * 81234
        ml.start(constants.BLOCK_START, metadata={constants.FIRST_EPOCH_NUM: first, constants.EPOCH_COUNT: 4},
                 time_ms=now)
        for epoch in range(first, first + 4):
            ml.start(constants.EPOCH_START, metadata={constants.EPOCH_NUM: epoch}, time_ms=now + 1 + epoch)
            ml.end(constants.EPOCH_STOP, metadata={constants.EPOCH_NUM: epoch}, time_ms=now + 20000 + epoch)
        ml.end(constants.BLOCK_STOP, metadata={constants.FIRST_EPOCH_NUM: first}, time_ms=now + 80000)
        ml.event(constants.EVAL_ACCURACY, [0.2134, 0.4019][block],
                 metadata={constants.EPOCH_NUM: first + 4}, time_ms=now + 81000)
    ml.end(constants.RUN_STOP, metadata={constants.STATUS: constants.ABORTED, constants.EPOCH_NUM: 8},
           time_ms=run_start + 170000)


if __name__ == "__main__":
    bert()
    resnet()
    bert_repeats()
    sys.exit(0)
