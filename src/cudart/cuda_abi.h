// The binary interface of the CUDA runtime API (toolkit 13) as far as the shim implements it:
// the structures, enumerations and handle types that cross the boundary between a program built
// by nvcc and libcudart. Layouts follow the CUDA 13 headers field for field (the tests compare
// sizes and offsets with the toolkit's headers when they are installed); the shim does not need
// those headers to build.
#pragma once
#include <cstddef>
#include <cstdint>

namespace warpsim::cudart {

using cudaError_t = int;

enum : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidPtx = 218,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureIsolation = 905,
  cudaErrorStreamCaptureImplicit = 906,
  cudaErrorGraphExecUpdateFailure = 910,
  cudaErrorUnknown = 999,
};

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
};

struct CUuuid_st {
  char bytes[16];
};

enum cudaMemcpyKind : int {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaChannelFormatKind : int {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};

enum cudaResourceType : int {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3,
};

struct CudaArray;  // what cudaArray_t points to (the shim's own object)

struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      CudaArray* array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};

enum cudaTextureAddressMode : int {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode : int { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode : int { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };

struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

enum cudaMemoryType : int {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};

struct cudaPitchedPtr {
  void* ptr;
  size_t pitch, xsize, ysize;
};
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPos {
  size_t x, y, z;
};

// A 3D copy between pitched memory and CUDA arrays (cudaMemcpy3D, graph memcpy nodes).
struct cudaMemcpy3DParms {
  CudaArray* srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  CudaArray* dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};

// ---- graphs

struct GraphNode;  // what cudaGraphNode_t points to (the shim's own objects)

enum cudaGraphNodeType : int {
  cudaGraphNodeTypeKernel = 0,
  cudaGraphNodeTypeMemcpy = 1,
  cudaGraphNodeTypeMemset = 2,
  cudaGraphNodeTypeHost = 3,
  cudaGraphNodeTypeGraph = 4,
  cudaGraphNodeTypeEmpty = 5,
  cudaGraphNodeTypeMemAlloc = 10,
  cudaGraphNodeTypeMemFree = 11,
};

// cudaLaunchKernelExC: a launch configuration with a list of attributes.
enum cudaLaunchAttributeID : int {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
};

// cudaAccessPolicyWindow: an L2 access policy window (hitProp, missProp: cudaAccessProperty).
enum cudaAccessProperty : int {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2,
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  int hitProp;
  int missProp;
};

// cudaLaunchAttributeValue (also cudaStreamAttrValue and cudaKernelNodeAttrValue).
union cudaLaunchAttributeValue {
  char bytes[64];
  void* align;  // the toolkit's union holds pointers (cudaAccessPolicyWindow)
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  int priority;
};

struct cudaLaunchAttribute {
  int id;  // cudaLaunchAttributeID
  char pad[4];
  union {
    char bytes[64];
    void* align;  // the toolkit's union holds pointers (cudaAccessPolicyWindow)
    cudaAccessPolicyWindow accessPolicyWindow;
    int cooperative;
    struct {
      unsigned int x, y, z;
    } clusterDim;
    int programmaticStreamSerializationAllowed;
    int priority;
  } val;
};

struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  void* stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};

struct cudaKernelNodeParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};

struct cudaMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};

struct cudaHostNodeParams {
  void (*fn)(void*);
  void* userData;
};

// cudaGraphEdgeData: ports and type of an edge; the shim keeps only default edges (all zero).
struct cudaGraphEdgeData {
  unsigned char from_port, to_port, type, reserved[5];
};

struct cudaGraphExecUpdateResultInfo {
  int result;  // cudaGraphExecUpdateResult: 0 success, 1 error, 2 topology changed, 3 node type changed
  GraphNode* errorNode;
  GraphNode* errorFromNode;
};

enum cudaStreamCaptureStatus : int {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};

// ---- stream-ordered allocation

enum cudaMemPoolAttr : int {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4,
  cudaMemPoolAttrReservedMemCurrent = 5,
  cudaMemPoolAttrReservedMemHigh = 6,
  cudaMemPoolAttrUsedMemCurrent = 7,
  cudaMemPoolAttrUsedMemHigh = 8,
};

enum : int { cudaMemLocationTypeDevice = 1, cudaMemAllocationTypePinned = 1, cudaMemAccessFlagsProtReadWrite = 3 };

struct cudaMemLocation {
  int type;  // cudaMemLocationType
  int id;
};

struct cudaMemPoolProps {
  int allocType;    // cudaMemAllocationType
  int handleTypes;  // cudaMemAllocationHandleType
  cudaMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};

struct cudaMemAccessDesc {
  cudaMemLocation location;
  int flags;  // cudaMemAccessFlags
};

struct cudaMemAllocNodeParams {
  cudaMemPoolProps poolProps;
  const cudaMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;  // out: the allocation's address
};

// CUDA 13 cudaDeviceProp.
struct cudaDeviceProp {
  char name[256];
  CUuuid_st uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

// cudaDeviceProp of CUDA 11 (it ends at reservedSharedMemPerBlock). CUDA 13 dropped the fields
// marked "(11/12 only)" and moved the ones after them.
struct cudaDeviceProp11 {
  char name[256];
  CUuuid_st uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;  // (11/12 only) kHz
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;  // (11/12 only)
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;  // (11/12 only)
  int integrated;
  int canMapHostMemory;
  int computeMode;  // (11/12 only)
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;  // (11/12 only)
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;  // (11/12 only) kHz
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;  // (11/12 only)
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;  // (11/12 only)
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

// cudaDeviceProp of CUDA 12 (cudaGetDeviceProperties_v2): CUDA 11's, thirteen fields that CUDA 13
// keeps, and 63 reserved ints (the same size in every 12.x).
struct cudaDeviceProp12 {
  cudaDeviceProp11 base;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
};

// cudaDeviceAttr values the shim answers.
enum : int {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrTexturePitchAlignment = 51,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrMemoryPoolsSupported = 115,
  cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
};

constexpr unsigned kStreamNonBlocking = 0x01;
constexpr unsigned kEventDisableTiming = 0x02;

}  // namespace warpsim::cudart
