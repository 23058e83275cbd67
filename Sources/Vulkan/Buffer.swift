import CVulkan

/// An owned buffer and the memory bound to it, both freed with it.
public final class Buffer: @unchecked Sendable {
    /// Where the buffer's memory lives.
    public enum Placement: Sendable {
        /// Fast for the device; reached by the host only through staging copies.
        case deviceLocal
        /// Mapped into this process, coherent: for uploads and downloads.
        case staging
    }

    let device: Device
    let handle: VkBuffer
    let memory: VkDeviceMemory
    /// Its size in bytes.
    public let size: Int
    /// The host's view of a staging buffer's memory; `nil` for device-local buffers.
    public let contents: UnsafeMutableRawPointer?

    /// Creates a buffer of `size` bytes usable as a shader storage buffer and as a copy source
    /// and destination.
    /// - Throws: ``VulkanError/Kind/outOfMemory`` when no memory of the kind is left.
    public init(device: Device, size: Int, placement: Placement) throws {
        self.device = device
        self.size = size
        let f = device.functions
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(max(size, 4))
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue
            | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try check(f.createBuffer(device.handle, &info, nil, &buffer), "vkCreateBuffer")
        handle = buffer!
        var requirements = VkMemoryRequirements()
        f.getBufferMemoryRequirements(device.handle, handle, &requirements)
        let wanted: VkMemoryPropertyFlags = switch placement {
        case .deviceLocal: VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue
        case .staging: VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
        }
        guard let type = device.physical.memoryType(allowed: requirements.memoryTypeBits, flags: wanted)
            ?? (placement == .deviceLocal ? device.physical.memoryType(allowed: requirements.memoryTypeBits, flags: 0) : nil) else {
            f.destroyBuffer(device.handle, handle, nil)
            throw VulkanError(.outOfMemory, operation: "vkAllocateMemory", reason: "the device has no suitable memory type")
        }
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = type
        var memory: VkDeviceMemory?
        let allocated = f.allocateMemory(device.handle, &allocation, nil, &memory)
        guard allocated == VK_SUCCESS, let memory else {
            f.destroyBuffer(device.handle, handle, nil)
            try check(allocated, "vkAllocateMemory (\(size) bytes)")
            throw VulkanError(.outOfMemory, operation: "vkAllocateMemory", reason: "no memory returned")
        }
        self.memory = memory
        do {
            try check(f.bindBufferMemory(device.handle, handle, memory, 0), "vkBindBufferMemory")
            if placement == .staging {
                var mapped: UnsafeMutableRawPointer?
                try check(f.mapMemory(device.handle, memory, 0, ~VkDeviceSize(0), 0, &mapped), "vkMapMemory")
                contents = mapped
            } else {
                contents = nil
            }
        } catch {
            f.destroyBuffer(device.handle, handle, nil)
            f.freeMemory(device.handle, memory, nil)
            throw error
        }
    }

    deinit {
        let f = device.functions
        if contents != nil { f.unmapMemory(device.handle, memory) }
        f.destroyBuffer(device.handle, handle, nil)
        f.freeMemory(device.handle, memory, nil)
    }
}
