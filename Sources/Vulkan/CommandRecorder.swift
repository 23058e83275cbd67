import CVulkan

/// Records and submits compute work on a device's queue, one submission at a time, with a
/// command pool (one command buffer), a descriptor pool reset per submission, and a fence to
/// wait on — each an owned handle of its own.
public final class CommandRecorder: @unchecked Sendable {
    let device: Device
    private let pool: CommandPool
    private let descriptors: DescriptorPool
    private let fence: Fence
    /// The most dispatches one submission may hold.
    public let maxDispatches: Int

    /// Creates a recorder for up to `maxDispatches` dispatches per submission, each binding at
    /// most `maxBuffers` buffers.
    public init(device: Device, maxDispatches: Int = 256, maxBuffers: Int = 4) throws {
        self.device = device
        self.maxDispatches = maxDispatches
        pool = try CommandPool(device: device)
        descriptors = try DescriptorPool(device: device, sets: maxDispatches, buffersPerSet: maxBuffers)
        fence = try Fence(device: device)
    }

    /// Records the work `record` describes, submits it and waits until the device has done it.
    public func submit(_ record: (inout Recording) throws -> Void) throws {
        let f = device.functions
        let commands = pool.commands
        try descriptors.reset()
        try check(f.resetCommandBuffer(commands, 0), "vkResetCommandBuffer")
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        try check(f.beginCommandBuffer(commands, &begin), "vkBeginCommandBuffer")
        var recording = Recording(device: device, commands: commands, descriptorPool: descriptors.handle, remaining: maxDispatches)
        do {
            try record(&recording)
        } catch {
            _ = f.endCommandBuffer(commands)
            throw error
        }
        try check(f.endCommandBuffer(commands), "vkEndCommandBuffer")
        var buffer: VkCommandBuffer? = commands
        var submit = VkSubmitInfo()
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
        submit.commandBufferCount = 1
        let submitted = withUnsafePointer(to: &buffer) { bufferPointer in
            submit.pCommandBuffers = bufferPointer
            return f.queueSubmit(device.queue, 1, &submit, fence.handle)
        }
        try check(submitted, "vkQueueSubmit")
        try fence.waitAndReset()
    }
}

/// The commands of one submission being recorded.
public struct Recording {
    let device: Device
    let commands: VkCommandBuffer
    let descriptorPool: VkDescriptorPool
    var remaining: Int

    /// Runs `pipeline` over `groups` workgroups with `buffers` bound to its bindings in order (as
    /// storage or texel buffers, as the pipeline declares) and `constants` as its push constants,
    /// then waits (within the submission) for its writes before anything recorded after it reads them.
    public mutating func dispatch<Constants>(_ pipeline: ComputePipeline, buffers: [Buffer], constants: Constants,
                                             groups: (x: Int, y: Int, z: Int)) throws {
        precondition(buffers.count == pipeline.bindings.count && MemoryLayout<Constants>.size == pipeline.pushConstantSize)
        guard remaining > 0 else {
            throw VulkanError(.callFailed, operation: "dispatch", reason: "more dispatches than the recorder holds in one submission")
        }
        remaining -= 1
        let f = device.functions
        var set: VkDescriptorSet?
        var allocation = VkDescriptorSetAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        allocation.descriptorPool = descriptorPool
        allocation.descriptorSetCount = 1
        let allocated = withUnsafePointer(to: Optional(pipeline.setLayout)) { layoutPointer in
            allocation.pSetLayouts = layoutPointer
            return f.allocateDescriptorSets(device.handle, &allocation, &set)
        }
        try check(allocated, "vkAllocateDescriptorSets")
        var infos = buffers.map { VkDescriptorBufferInfo(buffer: $0.handle, offset: 0, range: ~VkDeviceSize(0)) }
        var views: [VkBufferView?] = try zip(buffers, pipeline.bindings).map { buffer, texels in try texels.map(buffer.view) }
        infos.withUnsafeMutableBufferPointer { infoPointer in
            views.withUnsafeMutableBufferPointer { viewPointer in
                var writes = pipeline.bindings.indices.map { index in
                    var write = VkWriteDescriptorSet()
                    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                    write.dstSet = set
                    write.dstBinding = UInt32(index)
                    write.descriptorCount = 1
                    if pipeline.bindings[index] == nil {
                        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                        write.pBufferInfo = UnsafePointer(infoPointer.baseAddress! + index)
                    } else {
                        write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                        write.pTexelBufferView = UnsafePointer(viewPointer.baseAddress! + index)
                    }
                    return write
                }
                f.updateDescriptorSets(device.handle, UInt32(writes.count), &writes, 0, nil)
            }
        }
        f.cmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle)
        f.cmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nil)
        var values = constants
        withUnsafeBytes(of: &values) { bytes in
            f.cmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT.rawValue, 0, UInt32(bytes.count), bytes.baseAddress)
        }
        f.cmdDispatch(commands, UInt32(groups.x), UInt32(groups.y), UInt32(groups.z))
        barrier()
    }

    /// Copies `size` bytes from `source` to `destination` (both from offset 0 unless given),
    /// visible to everything recorded after it.
    public func copy(_ source: Buffer, to destination: Buffer, size: Int, sourceOffset: Int = 0, destinationOffset: Int = 0) {
        var region = VkBufferCopy(srcOffset: VkDeviceSize(sourceOffset), dstOffset: VkDeviceSize(destinationOffset),
                                  size: VkDeviceSize(size))
        device.functions.cmdCopyBuffer(commands, source.handle, destination.handle, 1, &region)
        barrier()
    }

    /// Makes every earlier transfer and shader write visible to every later transfer, shader
    /// and host read.
    private func barrier() {
        var memory = VkMemoryBarrier()
        memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER
        memory.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
        memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT.rawValue | VK_ACCESS_SHADER_WRITE_BIT.rawValue
            | VK_ACCESS_TRANSFER_READ_BIT.rawValue | VK_ACCESS_TRANSFER_WRITE_BIT.rawValue | VK_ACCESS_HOST_READ_BIT.rawValue
        let stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT.rawValue | VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
        device.functions.cmdPipelineBarrier(commands, stages, stages | VK_PIPELINE_STAGE_HOST_BIT.rawValue, 0, 1, &memory, 0, nil, 0, nil)
    }
}
