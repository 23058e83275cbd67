import CVulkan

/// One device a driver offers, with what this project needs to know about it.
public final class PhysicalDevice: @unchecked Sendable {
    let instance: Instance
    let handle: VkPhysicalDevice
    /// Its description.
    public let info: DeviceInfo
    let memoryProperties: VkPhysicalDeviceMemoryProperties

    init(instance: Instance, handle: VkPhysicalDevice) {
        self.instance = instance
        self.handle = handle
        var properties = VkPhysicalDeviceProperties()
        instance.getProperties(handle, &properties)
        var memory = VkPhysicalDeviceMemoryProperties()
        instance.getMemoryProperties(handle, &memory)
        memoryProperties = memory
        let families = enumerate(empty: VkQueueFamilyProperties()) { instance.getQueueFamilies(handle, $0, $1) }
        let computeFamilies = families.enumerated()
            .filter { $0.element.queueFlags & VK_QUEUE_COMPUTE_BIT.rawValue != 0 && $0.element.queueCount > 0 }
            .map(\.offset)
        let heaps = withUnsafeBytes(of: memory.memoryHeaps) { Array($0.bindMemory(to: VkMemoryHeap.self).prefix(Int(memory.memoryHeapCount))) }
        let deviceLocal = heaps.filter { $0.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT.rawValue != 0 }.map(\.size).reduce(0, +)
        let limits = properties.limits
        let driver = Self.driver(instance: instance, handle: handle, apiVersion: VulkanVersion(properties.apiVersion))
        info = DeviceInfo(
            name: string(fromCharacters: properties.deviceName),
            type: DeviceInfo.DeviceType(properties.deviceType),
            vendorID: properties.vendorID, deviceID: properties.deviceID,
            driverName: driver?.name, driverInfo: driver?.info,
            driverVersion: DeviceInfo.driverVersion(properties.driverVersion, vendorID: properties.vendorID),
            apiVersion: VulkanVersion(properties.apiVersion),
            computeQueueFamilies: computeFamilies,
            deviceLocalMemoryBytes: deviceLocal,
            maxWorkgroupSize: [limits.maxComputeWorkGroupSize.0, limits.maxComputeWorkGroupSize.1, limits.maxComputeWorkGroupSize.2],
            maxWorkgroupInvocations: limits.maxComputeWorkGroupInvocations,
            maxStorageBufferRange: limits.maxStorageBufferRange,
            maxTexelBufferElements: limits.maxTexelBufferElements,
            maxPushConstantsSize: limits.maxPushConstantsSize)
    }

    /// The driver's name and details (Vulkan 1.2's driver properties), when the device reports them.
    private static func driver(instance: Instance, handle: VkPhysicalDevice, apiVersion: VulkanVersion) -> (name: String, info: String)? {
        guard apiVersion >= VulkanVersion(major: 1, minor: 2, patch: 0), instance.apiVersion.minor >= 2,
              let getProperties2 = instance.getProperties2 else { return nil }
        var driver = VkPhysicalDeviceDriverProperties()
        driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
        return withUnsafeMutablePointer(to: &driver) { driverPointer in
            var properties = VkPhysicalDeviceProperties2()
            properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
            properties.pNext = UnsafeMutableRawPointer(driverPointer)
            getProperties2(handle, &properties)
            return (string(fromCharacters: driverPointer.pointee.driverName), string(fromCharacters: driverPointer.pointee.driverInfo))
        }
    }

    /// The index of a memory type allowed by `allowed` (a bit per type) that has all of `flags`.
    func memoryType(allowed: UInt32, flags: VkMemoryPropertyFlags) -> UInt32? {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) {
            Array($0.bindMemory(to: VkMemoryType.self).prefix(Int(memoryProperties.memoryTypeCount)))
        }
        return types.indices.first { allowed & (1 << $0) != 0 && types[$0].propertyFlags & flags == flags }.map(UInt32.init)
    }
}

/// What a Vulkan device is, as `mediajob probe` reports it.
public struct DeviceInfo: Sendable, Codable, Equatable {
    /// Vulkan's device types.
    public enum DeviceType: String, Sendable, Codable {
        case discrete, integrated, virtual, cpu, other

        init(_ type: VkPhysicalDeviceType) {
            self = switch type {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: .discrete
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: .integrated
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: .virtual
            case VK_PHYSICAL_DEVICE_TYPE_CPU: .cpu
            default: .other
            }
        }

        /// Whether this is a real GPU rather than software running on the CPU (llvmpipe) or unknown.
        public var isHardware: Bool { self == .discrete || self == .integrated || self == .virtual }
    }

    /// The device's name, as the driver gives it.
    public var name: String
    /// Discrete, integrated, virtual, CPU (software) or other.
    public var type: DeviceType
    /// The PCI vendor (0x10DE NVIDIA, 0x1002 AMD, 0x8086 Intel) or a Khronos vendor id.
    public var vendorID: UInt32
    /// The vendor's id for the device.
    public var deviceID: UInt32
    /// The driver's name (`llvmpipe`, `NVIDIA`, …), from Vulkan 1.2 devices.
    public var driverName: String?
    /// The driver's own description (Mesa version, …), from Vulkan 1.2 devices.
    public var driverInfo: String?
    /// The driver's version, decoded the vendor's way.
    public var driverVersion: String
    /// The Vulkan version the device supports.
    public var apiVersion: VulkanVersion
    /// Queue families that can run compute work.
    public var computeQueueFamilies: [Int]
    /// The total of the device-local memory heaps.
    public var deviceLocalMemoryBytes: UInt64
    /// The largest compute workgroup, per axis.
    public var maxWorkgroupSize: [UInt32]
    /// The most invocations in one workgroup.
    public var maxWorkgroupInvocations: UInt32
    /// The largest storage buffer a shader may address, in bytes.
    public var maxStorageBufferRange: UInt32
    /// The most texels a texel buffer a shader reads may hold.
    public var maxTexelBufferElements: UInt32
    /// The most push-constant bytes.
    public var maxPushConstantsSize: UInt32

    // `…Id` so that snake_case JSON (`vendor_id`) reads back into `vendorID`.
    enum CodingKeys: String, CodingKey {
        case name, type, vendorID = "vendorId", deviceID = "deviceId", driverName, driverInfo, driverVersion, apiVersion
        case computeQueueFamilies, deviceLocalMemoryBytes, maxWorkgroupSize, maxWorkgroupInvocations, maxStorageBufferRange
        case maxTexelBufferElements, maxPushConstantsSize
    }

    /// NVIDIA packs its driver version as 10.8.8.6 bits; everyone else as Vulkan versions.
    static func driverVersion(_ packed: UInt32, vendorID: UInt32) -> String {
        if vendorID == 0x10DE {
            return "\(packed >> 22).\((packed >> 14) & 0xff).\((packed >> 6) & 0xff).\(packed & 0x3f)"
        }
        return VulkanVersion(packed).description
    }
}
