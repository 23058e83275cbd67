// Vulkan's types only: the loader is opened at run time (dlopen), so that mediajob starts and
// renders on the CPU on machines without libvulkan. Every function is fetched through
// vkGetInstanceProcAddr / vkGetDeviceProcAddr.
#define VK_NO_PROTOTYPES 1
#include <vulkan/vulkan.h>
