import CVulkan

/// An owned `VkInstance`, destroyed with it, and the instance-level functions this project uses.
public final class Instance: @unchecked Sendable {
    /// The loader the instance came from, kept open while the instance lives.
    public let loader: VulkanLoader
    let handle: VkInstance
    /// The API version the instance was created for.
    public let apiVersion: VulkanVersion
    let destroyInstance: PFN_vkDestroyInstance
    let enumeratePhysicalDevices: PFN_vkEnumeratePhysicalDevices
    let getProperties: PFN_vkGetPhysicalDeviceProperties
    let getProperties2: PFN_vkGetPhysicalDeviceProperties2?
    let getQueueFamilies: PFN_vkGetPhysicalDeviceQueueFamilyProperties
    let getMemoryProperties: PFN_vkGetPhysicalDeviceMemoryProperties
    let createDevice: PFN_vkCreateDevice
    let getDeviceProcAddr: PFN_vkGetDeviceProcAddr

    /// Creates an instance for Vulkan 1.2 when the loader has it (driver names need it), else
    /// the loader's version.
    /// - Throws: ``VulkanError/Kind/noDevice`` when no driver is installed.
    public init(loader: VulkanLoader) throws {
        self.loader = loader
        let version = min(loader.instanceVersion(), VulkanVersion(major: 1, minor: 2, patch: 0))
        let create: PFN_vkCreateInstance = try loader.global("vkCreateInstance")
        var instance: VkInstance?
        let result = "mediajob".withCString { name in
            var application = VkApplicationInfo()
            application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
            application.pApplicationName = name
            application.pEngineName = name
            application.apiVersion = version.packed
            return withUnsafePointer(to: &application) { applicationPointer in
                var info = VkInstanceCreateInfo()
                info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                info.pApplicationInfo = applicationPointer
                return create(&info, nil, &instance)
            }
        }
        try check(result, "vkCreateInstance")
        guard let instance else {
            throw VulkanError(.noDevice, operation: "vkCreateInstance", reason: "the loader returned no instance")
        }
        handle = instance
        apiVersion = version
        destroyInstance = try loader.function("vkDestroyInstance", instance: instance)
        enumeratePhysicalDevices = try loader.function("vkEnumeratePhysicalDevices", instance: instance)
        getProperties = try loader.function("vkGetPhysicalDeviceProperties", instance: instance)
        getProperties2 = version.minor >= 1 ? try? loader.function("vkGetPhysicalDeviceProperties2", instance: instance) : nil
        getQueueFamilies = try loader.function("vkGetPhysicalDeviceQueueFamilyProperties", instance: instance)
        getMemoryProperties = try loader.function("vkGetPhysicalDeviceMemoryProperties", instance: instance)
        createDevice = try loader.function("vkCreateDevice", instance: instance)
        getDeviceProcAddr = try loader.function("vkGetDeviceProcAddr", instance: instance)
    }

    deinit { destroyInstance(handle, nil) }

    /// Every device the installed drivers offer, described.
    public func physicalDevices() throws -> [PhysicalDevice] {
        try enumerate("vkEnumeratePhysicalDevices", empty: nil) { enumeratePhysicalDevices(handle, $0, $1) }
            .compactMap { $0 }
            .map { PhysicalDevice(instance: self, handle: $0) }
    }
}
