import GPURender
import JobEngine
import MediaJobCLI
import PhotoJobs
import TaskContract

/// Offers `.gpu` to the scheduler when GPU probing selected a device. Probes only when a request
/// requires the GPU (`--gpu on`), so other commands never touch Vulkan.
package struct GPUResourceProbe: ResourceProbe {
    package func supportedResources() -> TaskResources {
        GPUSelection.current().renderer == nil ? [] : .gpu
    }

    package func unsupportedReason(for resource: TaskResources) -> String? {
        guard resource.contains(.gpu) else { return nil }
        let selection = GPUSelection.current()
        return selection.renderer == nil ? selection.report.reason : nil
    }
}

extension GPUPreference {
    /// What a request with this preference requires.
    package var requiredResources: TaskResources { self == .on ? .gpu : [] }
}
