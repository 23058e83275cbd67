import CVulkan

/// Why Vulkan could not be used or a Vulkan call failed, worded for the person reading it.
public struct VulkanError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable {
        /// No Vulkan loader (libvulkan.so.1) could be opened.
        case noLoader
        /// The loader found no driver, or no device.
        case noDevice
        /// A function the loader should provide is missing.
        case missingFunction
        /// Device or host memory ran out, or a request exceeds the memory budget.
        case outOfMemory
        /// The device was lost (driver reset, hang, unplugged).
        case deviceLost
        /// A self-test dispatch returned the wrong values.
        case selfTestFailed
        /// Any other failed call.
        case callFailed
    }

    /// What went wrong, broadly.
    public var kind: Kind
    /// The Vulkan call or step, such as `vkCreateInstance`.
    public var operation: String
    /// The `VkResult` the call returned, when there was one.
    public var result: Int32?
    /// What it means, in words.
    public var reason: String

    /// An error of `kind` from `operation`, with the `VkResult` when there was one.
    public init(_ kind: Kind, operation: String, result: Int32? = nil, reason: String) {
        self.kind = kind
        self.operation = operation
        self.result = result
        self.reason = reason
    }

    public var description: String {
        "\(operation) failed: \(reason)" + (result.map { " (VkResult \($0))" } ?? "")
    }
}

/// Throws a ``VulkanError`` unless `result` is `VK_SUCCESS` (or another non-negative status).
func check(_ result: VkResult, _ operation: String) throws {
    guard result.rawValue < 0 else { return }
    let (kind, reason): (VulkanError.Kind, String) = switch result {
    case VK_ERROR_OUT_OF_HOST_MEMORY: (.outOfMemory, "out of host memory")
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: (.outOfMemory, "out of device memory")
    case VK_ERROR_DEVICE_LOST: (.deviceLost, "the device was lost (driver reset or hang)")
    case VK_ERROR_INCOMPATIBLE_DRIVER: (.noDevice, "no compatible Vulkan driver is installed")
    case VK_ERROR_INITIALIZATION_FAILED: (.noDevice, "the driver could not be initialised")
    case VK_ERROR_LAYER_NOT_PRESENT, VK_ERROR_EXTENSION_NOT_PRESENT, VK_ERROR_FEATURE_NOT_PRESENT:
        (.callFailed, "a requested layer, extension or feature is not present")
    default: (.callFailed, "the driver returned an error")
    }
    throw VulkanError(kind, operation: operation, result: result.rawValue, reason: reason)
}
