import CVulkan

/// An owned logical device with one compute queue, destroyed with it.
///
/// Not for use from several threads at once; callers serialise (see ``CommandRecorder``).
public final class Device: @unchecked Sendable {
    /// The device it was opened from.
    public let physical: PhysicalDevice
    let handle: VkDevice
    let queue: VkQueue
    /// The queue family the compute queue comes from.
    public let queueFamily: Int
    let functions: DeviceFunctions

    /// Opens `physical` with one queue of its first compute queue family.
    /// - Throws: ``VulkanError/Kind/noDevice`` when it has no compute queue.
    public init(_ physical: PhysicalDevice) throws {
        guard let family = physical.info.computeQueueFamilies.first else {
            throw VulkanError(.noDevice, operation: "vkCreateDevice", reason: "\(physical.info.name) has no compute queue")
        }
        self.physical = physical
        queueFamily = family
        let instance = physical.instance
        var priority: Float = 1
        var device: VkDevice?
        let result = withUnsafePointer(to: &priority) { priorityPointer in
            var queueInfo = VkDeviceQueueCreateInfo()
            queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
            queueInfo.queueFamilyIndex = UInt32(family)
            queueInfo.queueCount = 1
            queueInfo.pQueuePriorities = priorityPointer
            return withUnsafePointer(to: &queueInfo) { queuePointer in
                var info = VkDeviceCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                info.queueCreateInfoCount = 1
                info.pQueueCreateInfos = queuePointer
                return instance.createDevice(physical.handle, &info, nil, &device)
            }
        }
        try check(result, "vkCreateDevice")
        guard let device else { throw VulkanError(.noDevice, operation: "vkCreateDevice", reason: "the driver returned no device") }
        handle = device
        do {
            functions = try DeviceFunctions(instance: instance, device: device)
        } catch {
            if let destroy: PFN_vkDestroyDevice = unsafeBitCast(instance.getDeviceProcAddr(device, "vkDestroyDevice"),
                                                                 to: PFN_vkDestroyDevice?.self) {
                destroy(device, nil)
            }
            throw error
        }
        var queue: VkQueue?
        functions.getDeviceQueue(device, UInt32(family), 0, &queue)
        self.queue = queue!
    }

    deinit {
        _ = functions.deviceWaitIdle(handle)
        functions.destroyDevice(handle, nil)
    }
}
