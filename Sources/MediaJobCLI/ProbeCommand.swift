import Foundation

/// `mediajob probe`: what this machine offers jobs.
package enum ProbeCommand: MediaCommand {
    package static let name = "probe"
    package static let synopsis = "[--benchmark] [--json] [--state-dir DIR]"
    package static let summary = "Report CPUs, memory, disk, thermal state and Vulkan GPUs as jobs see them"
    package static let discussion = """
        Reports the CPUs this process may use (online, affinity, cgroup quota), memory (available
        and the cgroup limit), free disk in the state folder, the thermal state from
        /sys/class/thermal, and every Vulkan device: type, driver, API version, compute queues,
        device-local memory, the limits that matter, and whether jobs render on it and why.
        The default number of concurrent jobs, and of chunks each job runs at once (one per
        usable CPU, and per 512 MiB of usable memory), are derived from these.

        A device renders only when it is a real GPU with a compute queue that passes a self-test
        of the render shaders. Software devices (llvmpipe) are slower than the CPU path and are
        used only with MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1. With --gpu auto, photos and video each
        render on the GPU only where it measured faster than the CPU: --benchmark records its
        figures per device and driver version in the state folder (render-benchmark.json), and
        a job measures them first when there are none for the present device and driver
        (MEDIAJOB_BENCHMARK_ROUNDS sets how many pictures, default 4). Set MEDIAJOB_SYSFS_ROOT to read /proc
        and /sys from another folder (for tests), MEDIAJOB_VULKAN_LOADER to use another loader.
        """
    package static let options = [
        OptionSpec.flag("benchmark", "also measure render throughput on the CPU and on the selected GPU (about a minute)"),
        CommonOptions.stateDir, CommonOptions.json,
    ]
}
