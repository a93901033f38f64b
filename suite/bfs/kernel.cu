// Breadth-first search (Rodinia bfs): one thread per node, two kernels per level. The first
// expands every node of the frontier (mask) to its unvisited neighbours; the second turns the
// newly reached nodes into the next frontier and raises the flag the host loops on.
struct Node {
  int start;
  int degree;
};

extern "C" __global__ void bfs_expand(const Node* nodes, const int* edges, unsigned char* mask,
                                      unsigned char* updating, const unsigned char* visited,
                                      int* cost, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && mask[tid]) {
    mask[tid] = 0;
    Node node = nodes[tid];
    for (int e = node.start; e < node.start + node.degree; ++e) {
      int id = edges[e];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = 1;
      }
    }
  }
}

extern "C" __global__ void bfs_update(unsigned char* mask, unsigned char* updating,
                                      unsigned char* visited, int* over, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && updating[tid]) {
    mask[tid] = 1;
    visited[tid] = 1;
    *over = 1;
    updating[tid] = 0;
  }
}
