import EngineTestKit
import Foundation

/// A folder imitating the parts of `/proc` and `/sys` that `mediajob` reads, for
/// `MEDIAJOB_SYSFS_ROOT`: CPUs online, memory, and one thermal zone with a critical trip point.
struct FakeSysfs {
    let folder: TemporaryDirectory

    /// The folder `mediajob` reads instead of `/`.
    var root: String { folder.path("sysfs") }

    /// The environment that points `mediajob` at it.
    var environment: [String: String] { ["MEDIAJOB_SYSFS_ROOT": root] }

    /// Makes the folder: `cpus` online, `availableMiB` of memory available, and `thermal_zone0`
    /// at `celsius` with its critical trip at 100 °C.
    init(in folder: TemporaryDirectory, cpus: Int = 8, availableMiB: Int = 16_384, celsius: Int = 45) throws {
        self.folder = folder
        try write("sys/devices/system/cpu/online", "0-\(cpus - 1)\n")
        try write("proc/meminfo", "MemTotal: \(availableMiB * 2048) kB\nMemAvailable: \(availableMiB * 1024) kB\n")
        try write("sys/class/thermal/thermal_zone0/trip_point_0_type", "critical\n")
        try write("sys/class/thermal/thermal_zone0/trip_point_0_temp", "100000\n")
        try setTemperature(celsius)
    }

    /// Sets `thermal_zone0`'s temperature, as the kernel would (millidegrees).
    func setTemperature(_ celsius: Int) throws {
        try write("sys/class/thermal/thermal_zone0/temp", "\(celsius * 1000)\n")
    }

    private func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
