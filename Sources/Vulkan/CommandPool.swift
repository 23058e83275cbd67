import CVulkan

/// An owned command pool on a device's compute queue family with one primary command buffer,
/// which goes with it.
final class CommandPool {
    let device: Device
    private let pool: VkCommandPool
    /// The pool's one command buffer, resettable on its own.
    let commands: VkCommandBuffer

    init(device: Device) throws {
        self.device = device
        let f = device.functions
        var info = VkCommandPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        info.queueFamilyIndex = UInt32(device.queueFamily)
        var pool: VkCommandPool?
        try check(f.createCommandPool(device.handle, &info, nil, &pool), "vkCreateCommandPool")
        var allocation = VkCommandBufferAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocation.commandPool = pool
        allocation.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocation.commandBufferCount = 1
        var commands: VkCommandBuffer?
        let allocated = f.allocateCommandBuffers(device.handle, &allocation, &commands)
        guard allocated == VK_SUCCESS, let commands else {
            f.destroyCommandPool(device.handle, pool, nil)
            try check(allocated, "vkAllocateCommandBuffers")
            throw VulkanError(.callFailed, operation: "vkAllocateCommandBuffers", reason: "no command buffer returned")
        }
        self.pool = pool!
        self.commands = commands
    }

    deinit { device.functions.destroyCommandPool(device.handle, pool, nil) }
}

/// An owned descriptor pool of storage-buffer descriptor sets, reset as a whole.
final class DescriptorPool {
    let device: Device
    let handle: VkDescriptorPool

    /// A pool for `sets` sets of up to `buffersPerSet` storage buffers and as many texel buffers each.
    init(device: Device, sets: Int, buffersPerSet: Int) throws {
        self.device = device
        var sizes = [VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER].map {
            VkDescriptorPoolSize(type: $0, descriptorCount: UInt32(sets * buffersPerSet))
        }
        var info = VkDescriptorPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        info.maxSets = UInt32(sets)
        info.poolSizeCount = UInt32(sizes.count)
        var pool: VkDescriptorPool?
        let result = sizes.withUnsafeMutableBufferPointer { sizePointer in
            info.pPoolSizes = UnsafePointer(sizePointer.baseAddress)
            return device.functions.createDescriptorPool(device.handle, &info, nil, &pool)
        }
        try check(result, "vkCreateDescriptorPool")
        handle = pool!
    }

    deinit { device.functions.destroyDescriptorPool(device.handle, handle, nil) }

    /// Frees every set allocated from the pool.
    func reset() throws {
        try check(device.functions.resetDescriptorPool(device.handle, handle, 0), "vkResetDescriptorPool")
    }
}

/// An owned fence, unsignalled when made.
final class Fence {
    let device: Device
    let handle: VkFence

    init(device: Device) throws {
        self.device = device
        var info = VkFenceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        var fence: VkFence?
        try check(device.functions.createFence(device.handle, &info, nil, &fence), "vkCreateFence")
        handle = fence!
    }

    deinit { device.functions.destroyFence(device.handle, handle, nil) }

    /// Waits until the device signals the fence, then unsignals it for the next submission.
    func waitAndReset() throws {
        var fence: VkFence? = handle
        try check(device.functions.waitForFences(device.handle, 1, &fence, VkBool32(VK_TRUE), .max), "vkWaitForFences")
        try check(device.functions.resetFences(device.handle, 1, &fence), "vkResetFences")
    }
}
