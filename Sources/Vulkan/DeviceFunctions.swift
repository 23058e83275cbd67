import CVulkan

/// The device-level functions this project calls, fetched once per device.
struct DeviceFunctions {
    let destroyDevice: PFN_vkDestroyDevice
    let getDeviceQueue: PFN_vkGetDeviceQueue
    let deviceWaitIdle: PFN_vkDeviceWaitIdle
    let createBuffer: PFN_vkCreateBuffer
    let destroyBuffer: PFN_vkDestroyBuffer
    let createBufferView: PFN_vkCreateBufferView
    let destroyBufferView: PFN_vkDestroyBufferView
    let getBufferMemoryRequirements: PFN_vkGetBufferMemoryRequirements
    let allocateMemory: PFN_vkAllocateMemory
    let freeMemory: PFN_vkFreeMemory
    let bindBufferMemory: PFN_vkBindBufferMemory
    let mapMemory: PFN_vkMapMemory
    let unmapMemory: PFN_vkUnmapMemory
    let createShaderModule: PFN_vkCreateShaderModule
    let destroyShaderModule: PFN_vkDestroyShaderModule
    let createDescriptorSetLayout: PFN_vkCreateDescriptorSetLayout
    let destroyDescriptorSetLayout: PFN_vkDestroyDescriptorSetLayout
    let createPipelineLayout: PFN_vkCreatePipelineLayout
    let destroyPipelineLayout: PFN_vkDestroyPipelineLayout
    let createComputePipelines: PFN_vkCreateComputePipelines
    let destroyPipeline: PFN_vkDestroyPipeline
    let createDescriptorPool: PFN_vkCreateDescriptorPool
    let destroyDescriptorPool: PFN_vkDestroyDescriptorPool
    let resetDescriptorPool: PFN_vkResetDescriptorPool
    let allocateDescriptorSets: PFN_vkAllocateDescriptorSets
    let updateDescriptorSets: PFN_vkUpdateDescriptorSets
    let createCommandPool: PFN_vkCreateCommandPool
    let destroyCommandPool: PFN_vkDestroyCommandPool
    let allocateCommandBuffers: PFN_vkAllocateCommandBuffers
    let resetCommandBuffer: PFN_vkResetCommandBuffer
    let beginCommandBuffer: PFN_vkBeginCommandBuffer
    let endCommandBuffer: PFN_vkEndCommandBuffer
    let cmdBindPipeline: PFN_vkCmdBindPipeline
    let cmdBindDescriptorSets: PFN_vkCmdBindDescriptorSets
    let cmdPushConstants: PFN_vkCmdPushConstants
    let cmdDispatch: PFN_vkCmdDispatch
    let cmdPipelineBarrier: PFN_vkCmdPipelineBarrier
    let cmdCopyBuffer: PFN_vkCmdCopyBuffer
    let queueSubmit: PFN_vkQueueSubmit
    let createFence: PFN_vkCreateFence
    let destroyFence: PFN_vkDestroyFence
    let waitForFences: PFN_vkWaitForFences
    let resetFences: PFN_vkResetFences

    init(instance: Instance, device: VkDevice) throws {
        func load<Function>(_ name: String) throws -> Function {
            guard let pointer = instance.getDeviceProcAddr(device, name) else {
                throw VulkanError(.missingFunction, operation: name, reason: "the driver does not provide \(name)")
            }
            return unsafeBitCast(pointer, to: Function.self)
        }
        destroyDevice = try load("vkDestroyDevice")
        getDeviceQueue = try load("vkGetDeviceQueue")
        deviceWaitIdle = try load("vkDeviceWaitIdle")
        createBuffer = try load("vkCreateBuffer")
        destroyBuffer = try load("vkDestroyBuffer")
        createBufferView = try load("vkCreateBufferView")
        destroyBufferView = try load("vkDestroyBufferView")
        getBufferMemoryRequirements = try load("vkGetBufferMemoryRequirements")
        allocateMemory = try load("vkAllocateMemory")
        freeMemory = try load("vkFreeMemory")
        bindBufferMemory = try load("vkBindBufferMemory")
        mapMemory = try load("vkMapMemory")
        unmapMemory = try load("vkUnmapMemory")
        createShaderModule = try load("vkCreateShaderModule")
        destroyShaderModule = try load("vkDestroyShaderModule")
        createDescriptorSetLayout = try load("vkCreateDescriptorSetLayout")
        destroyDescriptorSetLayout = try load("vkDestroyDescriptorSetLayout")
        createPipelineLayout = try load("vkCreatePipelineLayout")
        destroyPipelineLayout = try load("vkDestroyPipelineLayout")
        createComputePipelines = try load("vkCreateComputePipelines")
        destroyPipeline = try load("vkDestroyPipeline")
        createDescriptorPool = try load("vkCreateDescriptorPool")
        destroyDescriptorPool = try load("vkDestroyDescriptorPool")
        resetDescriptorPool = try load("vkResetDescriptorPool")
        allocateDescriptorSets = try load("vkAllocateDescriptorSets")
        updateDescriptorSets = try load("vkUpdateDescriptorSets")
        createCommandPool = try load("vkCreateCommandPool")
        destroyCommandPool = try load("vkDestroyCommandPool")
        allocateCommandBuffers = try load("vkAllocateCommandBuffers")
        resetCommandBuffer = try load("vkResetCommandBuffer")
        beginCommandBuffer = try load("vkBeginCommandBuffer")
        endCommandBuffer = try load("vkEndCommandBuffer")
        cmdBindPipeline = try load("vkCmdBindPipeline")
        cmdBindDescriptorSets = try load("vkCmdBindDescriptorSets")
        cmdPushConstants = try load("vkCmdPushConstants")
        cmdDispatch = try load("vkCmdDispatch")
        cmdPipelineBarrier = try load("vkCmdPipelineBarrier")
        cmdCopyBuffer = try load("vkCmdCopyBuffer")
        queueSubmit = try load("vkQueueSubmit")
        createFence = try load("vkCreateFence")
        destroyFence = try load("vkDestroyFence")
        waitForFences = try load("vkWaitForFences")
        resetFences = try load("vkResetFences")
    }
}
