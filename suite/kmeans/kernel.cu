// k-means clustering (Rodinia kmeans). invert_mapping transposes the point-major feature array
// into feature-major order, so that in the assignment kernel consecutive threads (points) read
// consecutive words of each feature; the cluster centres sit in constant memory, read
// uniformly by the whole warp.
#define MAX_CLUSTERS 16
#define MAX_FEATURES 32

__constant__ float c_clusters[MAX_CLUSTERS * MAX_FEATURES];

extern "C" __global__ void invert_mapping(const float* input, float* output, int npoints,
                                          int nfeatures) {
  int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point < npoints) {
    for (int f = 0; f < nfeatures; ++f) output[f * npoints + point] = input[point * nfeatures + f];
  }
}

extern "C" __global__ void kmeans_assign(const float* features, int* membership, int npoints,
                                         int nclusters, int nfeatures) {
  int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point < npoints) {
    int best = 0;
    float best_dist = 3.402823466e38f;
    for (int c = 0; c < nclusters; ++c) {
      float dist = 0.0f;
      for (int f = 0; f < nfeatures; ++f) {
        float d = features[f * npoints + point] - c_clusters[c * nfeatures + f];
        dist += d * d;
      }
      if (dist < best_dist) {
        best_dist = dist;
        best = c;
      }
    }
    membership[point] = best;
  }
}
