// Back-propagation training step of a two-layer perceptron (Rodinia backprop). layerforward:
// each 16 x 16 block multiplies 16 input units by their weights to the 16 hidden units and sums
// the products down the columns in shared memory (a tree, barrier per level), writing one
// partial sum per hidden unit and block. adjust_weights: every weight moves by
// eta * delta * input + momentum * previous change. Weights are (in + 1) x (hid + 1), row 0 and
// column 0 being the bias row and an unused column.
#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

extern "C" __global__ void bpnn_layerforward(const float* input, const float* weights,
                                             float* hidden_partial_sum, int in, int hid) {
  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_in = HEIGHT * by + ty + 1;
  if (tx == 0) input_node[ty] = input[index_in];
  __syncthreads();
  weight_matrix[ty][tx] = weights[index];
  __syncthreads();
  weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
  __syncthreads();
  for (int p = 2; p <= HEIGHT; p *= 2) {
    if (ty % p == 0) weight_matrix[ty][tx] += weight_matrix[ty + p / 2][tx];
    __syncthreads();
  }
  if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

extern "C" __global__ void bpnn_adjust_weights(const float* delta, int hid, const float* ly,
                                               int in, float* w, float* oldw) {
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = HEIGHT * by + ty + 1;
  int index_x = tx + 1;
  float change = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
  w[index] += change;
  oldw[index] = change;
  __syncthreads();
  if (ty == 0 && by == 0) {
    float bias_change = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
    w[index_x] += bias_change;
    oldw[index_x] = bias_change;
  }
}
