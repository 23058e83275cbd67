import Foundation
import MediaJobCLI
import Synchronization
import TaskContract

/// Shows a running job's durable progress: a line redrawn in place on a terminal, a plain line
/// now and then otherwise (both on standard error), or one JSON event per update on standard
/// output with `--json`.
package final class ProgressReporter: Sendable {
    package enum Style { case terminal, plain, json }

    private struct State {
        var lastPlainFraction = -1.0
        var lastPlainAt = ContinuousClock.now
        var drawn = false
    }

    private let style: Style
    private let console: Console
    private let jobID: String
    private let state = Mutex(State())

    package init(style: Style, console: Console, jobID: String) {
        self.style = style
        self.console = console
        self.jobID = jobID
    }

    /// Starts reporting `task`'s events.
    package func attach(to task: ContinuedTask) {
        task.observe { [self] event in
            switch event {
            case .progress(let snapshot): show(snapshot, task: task)
            case .titleChanged: if style == .terminal { show(task.progress, task: task) }
            case .expired:
                if style == .json { console.json(["event": "expired", "job_id": jobID]) }
            case .completed: finishLine()
            }
        }
    }

    /// Ends a redrawn line so that later text starts on a fresh one.
    package func finishLine() {
        let wasDrawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if wasDrawn { console.raw("\n") }
    }

    private func show(_ snapshot: ProgressSnapshot, task: ContinuedTask) {
        switch style {
        case .json:
            var event: [String: Any] = [
                "event": "progress", "job_id": jobID, "fraction": rounded(snapshot.fraction),
                "stage": snapshot.stage?.rawValue ?? "", "title": task.title, "subtitle": task.subtitle.text,
                "units_done": snapshot.unitsDone, "units_total": snapshot.unitsTotal,
            ]
            event["eta_s"] = snapshot.etaSeconds.map { rounded($0) } ?? NSNull()
            console.json(event)
        case .terminal:
            state.withLock { $0.drawn = true }
            console.raw("\r\u{1B}[2K" + Self.line(title: task.title, subtitle: task.subtitle.text, snapshot: snapshot))
        case .plain:
            let due = state.withLock { state -> Bool in
                let now = ContinuousClock.now
                guard snapshot.fraction - state.lastPlainFraction >= 0.1 || now - state.lastPlainAt >= .seconds(5)
                        || snapshot.fraction >= 1 else { return false }
                state.lastPlainFraction = snapshot.fraction
                state.lastPlainAt = now
                return true
            }
            if due { console.err(Self.line(title: task.title, subtitle: task.subtitle.text, snapshot: snapshot)) }
        }
    }

    /// One progress line: title, bar, percent, subtitle and time left.
    package static func line(title: String, subtitle: String, snapshot: ProgressSnapshot) -> String {
        let width = 24
        let filled = Int((snapshot.fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = String(format: "%3d%%", Int((snapshot.fraction * 100).rounded(.down)))
        let eta = snapshot.etaSeconds.map { "  ETA \(duration($0))" } ?? ""
        return "\(title)  [\(bar)] \(percent)  \(subtitle)\(eta)"
    }

    /// A duration for people: `42s`, `3m 05s`, `1h 02m`.
    package static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm %02ds", total / 60, total % 60) }
        return String(format: "%dh %02dm", total / 3600, total % 3600 / 60)
    }

    private func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}
