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
    /// Texel views of the buffer made so far, by format; destroyed with it.
    private var views: [UInt32: VkBufferView] = [:]

    /// Creates a buffer of `size` bytes usable as a shader storage buffer, as a uniform texel
    /// buffer (``view(_:)``) and as a copy source and destination.
    /// - Throws: ``VulkanError/Kind/outOfMemory`` when no memory of the kind is left.
    public init(device: Device, size: Int, placement: Placement) throws {
        self.device = device
        self.size = size
        let f = device.functions
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(max(size, 4))
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT.rawValue
            | VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue | VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
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

    /// A view of the buffer as texels of `format` from its start: as many whole texels as fit,
    /// at most the device's `maxTexelBufferElements`. Made once per format.
    func view(_ format: TexelFormat) throws -> VkBufferView {
        if let made = views[format.vulkan.rawValue] { return made }
        let texels = min(size / format.bytes, Int(device.physical.info.maxTexelBufferElements))
        var info = VkBufferViewCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO
        info.buffer = handle
        info.format = format.vulkan
        info.offset = 0
        info.range = VkDeviceSize(max(1, texels) * format.bytes)
        var view: VkBufferView?
        try check(device.functions.createBufferView(device.handle, &info, nil, &view), "vkCreateBufferView")
        views[format.vulkan.rawValue] = view!
        return view!
    }

    deinit {
        let f = device.functions
        for view in views.values { f.destroyBufferView(device.handle, view, nil) }
        if contents != nil { f.unmapMemory(device.handle, memory) }
        f.destroyBuffer(device.handle, handle, nil)
        f.freeMemory(device.handle, memory, nil)
    }
}

/// How a shader reads a buffer as texels (a uniform texel buffer): software devices fetch those
/// with vector gathers, where storage-buffer loads go one invocation at a time.
public enum TexelFormat: Sendable {
    /// One byte a texel, read as a float in 0…1 (`samplerBuffer`, an unsigned normalised format).
    case unorm8
    /// One 32-bit unsigned integer a texel (`usamplerBuffer`).
    case uint32
    /// One 32-bit float a texel (`samplerBuffer`).
    case float32
    /// Four 16-bit floats a texel, RGBA (`samplerBuffer`).
    case rgba16Float
    /// Four 32-bit floats a texel (`samplerBuffer`).
    case rgba32Float

    var vulkan: VkFormat {
        switch self {
        case .unorm8: VK_FORMAT_R8_UNORM
        case .uint32: VK_FORMAT_R32_UINT
        case .float32: VK_FORMAT_R32_SFLOAT
        case .rgba16Float: VK_FORMAT_R16G16B16A16_SFLOAT
        case .rgba32Float: VK_FORMAT_R32G32B32A32_SFLOAT
        }
    }

    /// Bytes a texel.
    public var bytes: Int {
        switch self {
        case .unorm8: 1
        case .uint32, .float32: 4
        case .rgba16Float: 8
        case .rgba32Float: 16
        }
    }
}
