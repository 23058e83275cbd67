import Foundation

/// What ``HostProbe`` found.
public struct HostReport: Sendable, Codable, Equatable {
    public var cpu: CPU
    public var memory: Memory
    public var disk: Disk
    public var thermal: Thermal

    /// CPUs the job may use.
    public struct CPU: Sendable, Codable, Equatable {
        /// CPUs online on the machine.
        public var online: Int
        /// CPUs this process may run on (`sched_getaffinity`).
        public var affinity: Int
        /// The cgroup's CPU quota in CPUs (`cpu.max`), `nil` when unlimited.
        public var cgroupQuota: Double?

        /// CPUs usable in practice: the smallest of the three, at least 1.
        public var usable: Int {
            var count = min(online, affinity)
            if let cgroupQuota { count = min(count, Int(cgroupQuota.rounded(.up))) }
            return max(1, count)
        }
    }

    /// Memory the job may use.
    public struct Memory: Sendable, Codable, Equatable {
        public var totalBytes: UInt64
        public var availableBytes: UInt64
        /// The cgroup's memory limit (`memory.max`), `nil` when unlimited.
        public var cgroupLimitBytes: UInt64?
        public var cgroupUsedBytes: UInt64?

        /// Bytes usable in practice: available memory, bounded by what the cgroup has left.
        public var usableBytes: UInt64 {
            guard let limit = cgroupLimitBytes else { return availableBytes }
            let left = limit > (cgroupUsedBytes ?? 0) ? limit - (cgroupUsedBytes ?? 0) : 0
            return min(availableBytes, left)
        }
    }

    /// Disk space where the output goes.
    public struct Disk: Sendable, Codable, Equatable {
        public var path: String
        public var freeBytes: UInt64?
        public var totalBytes: UInt64?
    }

    /// Temperatures and the state they add up to.
    public struct Thermal: Sendable, Codable, Equatable {
        public var zones: [Zone]

        /// One thermal zone and its trip points (`passive`, `hot`, `critical`, … in °C).
        public struct Zone: Sendable, Codable, Equatable {
            public var name: String
            public var celsius: Double
            public var trips: [String: Double]
        }

        /// The machine's thermal state, named as `ProcessInfo.ThermalState`.
        public enum State: String, Sendable, Codable, Comparable {
            case unknown, nominal, fair, serious, critical

            private var order: Int { [.unknown, .nominal, .fair, .serious, .critical].firstIndex(of: self)! }
            public static func < (lhs: State, rhs: State) -> Bool { lhs.order < rhs.order }
        }

        /// The worst zone's state (see ``Zone/state``); `unknown` without zones.
        public var state: State { zones.map(\.state).max() ?? .unknown }

        /// The zone that sets ``state``: the hottest against its trip points.
        public var worstZone: Zone? { zones.max { $0.state < $1.state } }
    }
}

extension HostReport.Thermal.Zone {
    /// This zone's state: `critical` at or past its critical (or hot) trip, `serious` past its
    /// passive trip, `fair` within 10 °C of it, else `nominal`.
    public var state: HostReport.Thermal.State {
        if let critical = trips["critical"] ?? trips["hot"], celsius >= critical { return .critical }
        guard let passive = trips["passive"] else { return .nominal }
        if celsius >= passive { return .serious }
        return celsius >= passive - 10 ? .fair : .nominal
    }
}

extension HostReport {
    /// How many chunks of one job may run at once when each may need `memoryPerChunk` bytes:
    /// no more than the usable CPUs, nor than usable memory holds, and at least one (a machine
    /// short of memory runs one chunk at a time rather than none).
    public func parallelism(memoryPerChunk: UInt64) -> Int {
        let byMemory = memoryPerChunk == 0 ? Int.max : Int(min(memory.usableBytes / memoryPerChunk, UInt64(Int.max)))
        return max(1, min(cpu.usable, byMemory))
    }

    /// The default number of jobs that may run at once: one per two usable CPUs and per
    /// 2 GiB of usable memory, at least one.
    public var defaultMaxJobs: Int {
        let byCPU = cpu.usable / 2
        let byMemory = Int(memory.usableBytes / (2 << 30))
        return max(1, min(byCPU, byMemory))
    }
}
