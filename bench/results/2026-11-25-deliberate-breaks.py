"""Deliberate breaks of the behaviour each strengthened engine-side test of issue 15 names: applied together to the
working tree (python3 bench/results/2026-11-25-deliberate-breaks.py), built, the named tests run and seen to fail,
then reverted with git checkout. What each made fail: bench/results/2026-11-25-deliberate-breaks.md."""
import sys
breaks = [
 ("trainers/comm/nccl/nccl_communicator.cpp", "    if (found != cudaSuccess || devices == 0)\n        throw", "    if (found != cudaSuccess || devices == 0) std::exit(0);\n    if (false)\n        throw", "B5 NCCL without a GPU exits 0"),
 ("trainers/loop/training_loop.cpp", "autocastType(o.precision),", "autocastType(\"fp32\"),", "B6 --precision ignored"),
 ("trainers/workloads/image_classification.cpp", "    if (augment_) images = randomCropAndFlip", "    if (false && augment_) images = randomCropAndFlip", "B7 augmentation not applied"),
 ("trainers/workloads/translation.cpp", "        corpusBleu(bleu), loss_sums", "        0.0, loss_sums", "B8 BLEU a constant 0"),
 ("trainers/workloads/bert_pretraining.cpp", "    return {sums[0] / sums[2], sums[1] / sums[2]};", "    return {0.0, sums[1] / sums[2]};", "B8 masked-LM accuracy a constant 0"),
 ("trainers/models/bert.cpp", "    if (preset == \"large\" || preset.empty()) return {};", "    if (preset == \"large\" || preset.empty()) return {.ffn = 4000};", "B9 BERT-large's shape wrong"),
 ("trainers/loop/collective_sweep.cpp", "    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_LAND, mpi));", "    correct = 1;\n    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &correct, 1, MPI_INT, MPI_LAND, mpi));", "B10 the sweep's check always says yes"),
 ("remote/ssh_transport.cpp", "    if (ssh_connect(session) != SSH_OK)\n        throw", "    if (ssh_connect(session) != SSH_OK && (sleep(3), true))\n        throw", "B11 a refused connection waited out"),
 ("ui/main_window.cpp", "        connect(choice, &QComboBox::activated, this, [this] {", "        if (false) connect(choice, &QComboBox::activated, this, [this] {", "B2 the Compare combos do nothing"),
]
for path, old, new, name in breaks:
    s = open(path).read()
    if old not in s: sys.exit(f"{name}: text not found in {path}")
    open(path, "w").write(s.replace(old, new, 1))
    print("applied", name)
