// B+tree point lookups (Rodinia b+tree, findK). The tree lives in one array of fixed-size nodes;
// each block answers one query with one thread per key slot: at every level the thread whose key
// range holds the target publishes the child to follow through shared memory, and at the leaf
// the thread holding the key writes the record.
#define ORDER 128

struct Node {
  int keys[ORDER];
  int children[ORDER];  // child node index, or record index in a leaf
  int num_keys;
  int is_leaf;
};

extern "C" __global__ void find_k(const Node* nodes, int root, const int* records,
                                  const int* queries, int* answers, int height) {
  __shared__ int next;
  __shared__ int found;
  int t = threadIdx.x;
  int target = queries[blockIdx.x];
  if (t == 0) {
    next = root;
    found = -1;
  }
  __syncthreads();
  for (int level = 0; level < height; ++level) {
    const Node* node = &nodes[next];
    int n = node->num_keys;
    int child = -1;
    if (t < n && node->keys[t] <= target && (t + 1 == n || target < node->keys[t + 1]))
      child = node->children[t];
    __syncthreads();
    if (child >= 0) next = child;
    __syncthreads();
  }
  const Node* leaf = &nodes[next];
  if (t < leaf->num_keys && leaf->keys[t] == target) found = records[leaf->children[t]];
  __syncthreads();
  if (t == 0) answers[blockIdx.x] = found;
}
