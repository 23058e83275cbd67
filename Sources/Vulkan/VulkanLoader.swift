import CVulkan
import Glibc

/// The Vulkan loader (`libvulkan.so.1`), opened at run time so that a machine without it still
/// runs everything on the CPU. Functions are fetched through `vkGetInstanceProcAddr`.
///
/// Closed when the last object using it goes: with its instances destroyed, the loader has
/// already unloaded the drivers, so a probe that selected nothing leaves no driver (nor the
/// LLVM a software driver brings, about 45 MiB) in the process.
public final class VulkanLoader: @unchecked Sendable {
    /// The library opened.
    public let path: String
    private let handle: UnsafeMutableRawPointer
    let getInstanceProcAddr: PFN_vkGetInstanceProcAddr

    /// Opens the loader at `path` (default `libvulkan.so.1`, found the usual way).
    /// - Throws: ``VulkanError/Kind/noLoader`` when it cannot be opened or is not a Vulkan loader.
    public init(path: String = "libvulkan.so.1") throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw VulkanError(.noLoader, operation: "dlopen", reason: "the Vulkan loader \(path) is not installed "
                                + "(\(why)); install libvulkan1 and a driver (mesa-vulkan-drivers for a software device)")
        }
        guard let symbol = dlsym(handle, "vkGetInstanceProcAddr") else {
            dlclose(handle)
            throw VulkanError(.noLoader, operation: "dlsym", reason: "\(path) has no vkGetInstanceProcAddr; it is not a Vulkan loader")
        }
        self.path = path
        self.handle = handle
        getInstanceProcAddr = unsafeBitCast(symbol, to: PFN_vkGetInstanceProcAddr.self)
    }

    deinit { dlclose(handle) }

    /// A function that needs no instance (`vkCreateInstance`, `vkEnumerateInstanceVersion`).
    func global<Function>(_ name: String, as type: Function.Type = Function.self) throws -> Function {
        try function(name, instance: nil)
    }

    /// A function of `instance`.
    func function<Function>(_ name: String, instance: VkInstance?, as type: Function.Type = Function.self) throws -> Function {
        guard let pointer = getInstanceProcAddr(instance, name) else {
            throw VulkanError(.missingFunction, operation: name, reason: "the Vulkan loader does not provide \(name)")
        }
        return unsafeBitCast(pointer, to: Function.self)
    }

    /// The highest Vulkan version the loader supports, as (major, minor, patch).
    public func instanceVersion() -> VulkanVersion {
        guard let enumerateVersion: PFN_vkEnumerateInstanceVersion = try? global("vkEnumerateInstanceVersion") else {
            return VulkanVersion(major: 1, minor: 0, patch: 0)
        }
        var version: UInt32 = 0
        return enumerateVersion(&version) == VK_SUCCESS ? VulkanVersion(version) : VulkanVersion(major: 1, minor: 0, patch: 0)
    }
}

/// A Vulkan API version.
public struct VulkanVersion: Sendable, Codable, Equatable, Comparable, CustomStringConvertible {
    /// The version's parts.
    public var major: Int, minor: Int, patch: Int

    /// A version from its parts.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Decodes Vulkan's packed form (`VK_MAKE_API_VERSION`).
    public init(_ packed: UInt32) {
        self.init(major: Int((packed >> 22) & 0x7f), minor: Int((packed >> 12) & 0x3ff), patch: Int(packed & 0xfff))
    }

    /// Vulkan's packed form.
    var packed: UInt32 { UInt32(major) << 22 | UInt32(minor) << 12 | UInt32(patch) }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: VulkanVersion, rhs: VulkanVersion) -> Bool { lhs.packed < rhs.packed }
}
