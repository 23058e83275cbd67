import Foundation
import Glibc

/// Reads what this machine offers a job: CPUs (affinity and cgroup quota), memory (cgroup limit
/// and available), free disk, and thermal state.
///
/// Everything is read from `/proc` and `/sys` under ``root``, so tests can point it at a folder
/// that imitates them.
public struct HostProbe: Sendable {
    /// Where `/proc` and `/sys` are looked for; `/` on a real machine.
    public var root: URL

    public init(root: URL = URL(fileURLWithPath: "/")) {
        self.root = root
    }

    /// Probes everything, measuring free disk where `diskPath` lies.
    public func report(diskPath: URL) -> HostReport {
        HostReport(cpu: cpu(), memory: memory(), disk: disk(at: diskPath), thermal: thermal())
    }

    /// CPUs: online, allowed by affinity, and the tightest cgroup quota.
    public func cpu() -> HostReport.CPU {
        let online = readText("sys/devices/system/cpu/online").map(Self.countCPUList) ?? ProcessInfo.processInfo.processorCount
        let allowed = readText("proc/self/status").flatMap { status in
            status.split(separator: "\n")
                .first { $0.hasPrefix("Cpus_allowed_list:") }
                .map { Self.countCPUList(String($0.dropFirst("Cpus_allowed_list:".count))) }
        } ?? online
        let quotas = cgroupFolders(controller: "cpu").compactMap { folder -> Double? in
            if let fields = readText("\(folder)/cpu.max")?.split(separator: " "), fields.count == 2,
               let limit = Double(fields[0]), let period = Double(fields[1]), period > 0 {
                return limit / period
            }
            guard let limit = readText("\(folder)/cpu.cfs_quota_us").flatMap(Double.init), limit > 0,
                  let period = readText("\(folder)/cpu.cfs_period_us").flatMap(Double.init), period > 0 else { return nil }
            return limit / period
        }
        let quota = quotas.min()
        return HostReport.CPU(online: online, affinity: allowed, cgroupQuota: quota)
    }

    /// Memory: total and available from `/proc/meminfo`, and the tightest cgroup limit and use.
    public func memory() -> HostReport.Memory {
        var fields: [String: UInt64] = [:]
        for line in (readText("proc/meminfo") ?? "").split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let kib = UInt64(parts[1].split(separator: " ").first ?? "") else { continue }
            fields[String(parts[0])] = kib * 1024
        }
        let folders = cgroupFolders(controller: "memory")
        let limit = folders.compactMap { folder in
            (readText("\(folder)/memory.max") ?? readText("\(folder)/memory.limit_in_bytes")).flatMap { UInt64($0) }
        }.filter { $0 < 1 << 62 }.min() // cgroup v1 spells "no limit" as a huge number
        let used = folders.lazy.compactMap { folder in
            (readText("\(folder)/memory.current") ?? readText("\(folder)/memory.usage_in_bytes")).flatMap { UInt64($0) }
        }.first
        return HostReport.Memory(
            totalBytes: fields["MemTotal"] ?? 0,
            availableBytes: fields["MemAvailable"] ?? 0,
            cgroupLimitBytes: limit,
            cgroupUsedBytes: used
        )
    }

    /// Free and total bytes on the file system holding `path` (or its nearest existing parent).
    public func disk(at path: URL) -> HostReport.Disk {
        var probePath = path
        while !DurableFiles.exists(probePath), probePath.path != "/" {
            probePath.deleteLastPathComponent()
        }
        var info = statvfs()
        guard statvfs(probePath.path, &info) == 0 else {
            return HostReport.Disk(path: probePath.path, freeBytes: nil, totalBytes: nil)
        }
        let block = UInt64(info.f_frsize)
        return HostReport.Disk(path: probePath.path, freeBytes: UInt64(info.f_bavail) * block,
                               totalBytes: UInt64(info.f_blocks) * block)
    }

    /// The hottest thermal zone against its trip points.
    public func thermal() -> HostReport.Thermal {
        let base = "sys/class/thermal"
        let zones = ((try? FileManager.default.contentsOfDirectory(atPath: url(base).path)) ?? [])
            .filter { $0.hasPrefix("thermal_zone") }
            .sorted()
        var readings: [HostReport.Thermal.Zone] = []
        for zone in zones {
            guard let milli = readText("\(base)/\(zone)/temp").flatMap({ Double($0) }) else { continue }
            var trips: [String: Double] = [:]
            for index in 0..<16 {
                guard let type = readText("\(base)/\(zone)/trip_point_\(index)_type"),
                      let temp = readText("\(base)/\(zone)/trip_point_\(index)_temp").flatMap({ Double($0) })
                else { continue }
                trips[type] = min(trips[type] ?? .infinity, temp / 1000)
            }
            readings.append(HostReport.Thermal.Zone(name: zone, celsius: milli / 1000, trips: trips))
        }
        return HostReport.Thermal(zones: readings)
    }

    /// The cgroup folders that bound this process for `controller`: its own first, then each parent
    /// up to the root, since a limit set on any of them applies. Reads `/proc/self/cgroup` for both
    /// cgroup v2 (`0::/path`) and v1 (`4:memory:/path`); without it, the v2 root alone.
    func cgroupFolders(controller: String) -> [String] {
        var folders: [String] = []
        for line in (readText("proc/self/cgroup") ?? "").split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let base: String
            if fields[0] == "0", fields[1].isEmpty {
                base = "sys/fs/cgroup"
            } else if fields[1].split(separator: ",").contains(Substring(controller)) {
                base = "sys/fs/cgroup/\(fields[1])"
            } else {
                continue
            }
            var path = String(fields[2]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            while true {
                folders.append(path.isEmpty ? base : "\(base)/\(path)")
                guard !path.isEmpty else { break }
                path = (path as NSString).deletingLastPathComponent
            }
        }
        return folders.isEmpty ? ["sys/fs/cgroup"] : folders
    }

    private func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }

    /// The file's text without the white space around it. Read as bytes and trimmed in Swift:
    /// `String(contentsOf:encoding:)` and `trimmingCharacters(in:)` go through `NSString`, which
    /// made probing a fifth of the instructions of a `mediajob jobs` (issue 15).
    private func readText(_ relative: String) -> String? {
        guard let data = FileManager.default.contents(atPath: url(relative).path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }

    /// Counts a kernel CPU list such as `0-3,8,10-11`.
    static func countCPUList(_ list: String) -> Int {
        list.trimmingCharacters(in: .whitespaces).split(separator: ",").reduce(0) { count, range in
            let ends = range.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch ends.count {
            case 1: return count + 1
            case 2 where ends[1] >= ends[0]: return count + ends[1] - ends[0] + 1
            default: return count
            }
        }
    }
}
