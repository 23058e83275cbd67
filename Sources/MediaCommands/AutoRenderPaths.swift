import Foundation
import GPURender
import MediaJobCLI
import MediaJobs
import Synchronization

/// Where `--gpu auto` renders photos and video in this process: on the faster path by the state
/// folder's ``RenderBenchmarkRecord`` for the selected device and driver. When there is none, or
/// it is of another device or driver version, the first chunk that asks measures both paths
/// (`probe --benchmark`'s figures) and records them; other chunks wait for the answer.
enum AutoRenderPaths {
    /// Set to a number of rounds to measure with fewer (or more) pictures than `probe --benchmark`'s 4.
    static let roundsVariable = "MEDIAJOB_BENCHMARK_ROUNDS"

    private static let known = Mutex<RenderBenchmarkRecord??>(nil)

    /// The record `auto` follows for `renderer`'s device, measured and recorded in `folder` when
    /// missing or stale; `nil` when measuring failed (then `auto` renders on the GPU, as `on` does).
    static func record(for renderer: GPURenderer, folder: URL, environment: [String: String]) -> RenderBenchmarkRecord? {
        known.withLock { known in
            if let known { return known }
            var record = RenderBenchmarkRecord.load(from: folder)
            if record?.matches(renderer.device) != true {
                let rounds = environment[roundsVariable].flatMap(Int.init).map { max(1, $0) } ?? 4
                record = try? measure(renderer, rounds: rounds)
                try? record?.save(in: folder)
            }
            known = .some(record)
            return record
        }
    }

    /// Measures both paths on `renderer`'s device now.
    static func measure(_ renderer: GPURenderer, rounds: Int = 4) throws -> RenderBenchmarkRecord {
        let figures = try RenderBenchmark.run(gpu: renderer, rounds: rounds)
        return RenderBenchmarkRecord(device: renderer.device, cpu: figures.cpu, gpu: figures.gpu!)
    }

    /// What `probe` says about `auto`'s paths for `selection`, from the record in `folder` (never
    /// measuring): where each operation renders with the figures, or why there are none. `nil`
    /// when no device is selected.
    static func description(_ selection: GPUReport, folder: URL) -> (text: String, json: [String: Any])? {
        guard let selected = selection.selected else { return nil }
        let device = selection.devices[selected].info
        guard let record = RenderBenchmarkRecord.load(from: folder), record.matches(device) else {
            let text = "--gpu auto has no figures yet for \(device.name) with driver \(device.driverVersion): the first job "
                + "that may render on it measures both paths (about a minute); `mediajob probe --benchmark` measures now"
            return (text, ["measured": false, "reason": text])
        }
        let summary = record.summary
        return ("--gpu auto renders " + summary.text, summary.json)
    }
}
