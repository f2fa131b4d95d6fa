/* Smallest real MPI program for the cluster smoke test: every rank sums its rank with MPI_Allreduce, rank 0 checks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, sum = 0, len = 0;
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(host, &len);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d of %d on %s\n", rank, size, host);
  int ok = sum == size * (size - 1) / 2;
  if (rank == 0) printf("allreduce %s: %d\n", ok ? "ok" : "WRONG", sum);
  MPI_Finalize();
  return ok ? 0 : 1;
}
