/// Splits a video's time range into segments that start on keyframes, so that each segment is
/// encoded on its own and joined later without re-encoding.
///
/// Chosen from measurements on a 2-core machine: two segments encoded at once, each with
/// one-threaded x264, ran as fast as one ffmpeg pass using both cores, while many short segments
/// cost time and bytes (every segment starts with a keyframe and a cold encoder). So a range is
/// cut into as few segments as keep every worker busy: a multiple of the parallelism, each about
/// ``targetSeconds`` long or longer, never shorter than ``minimumSeconds``.
public struct SegmentPlanner: Sendable {
    /// Segments run at once.
    public var parallelism: Int
    /// The length aimed for when a range is long enough for more segments than workers.
    public var targetSeconds: Double = 30
    /// No segment is planned shorter than this (the last one may be).
    public var minimumSeconds: Double = 1

    public init(parallelism: Int) {
        self.parallelism = max(1, parallelism)
    }

    /// The segments of `start..<end`, as (start, end) pairs in seconds.
    /// - Parameters:
    ///   - keyframes: presentation times of the video's keyframes, ascending.
    ///   - start: where the kept range starts (need not be a keyframe).
    ///   - end: where it ends.
    public func segments(keyframes: [Double], from start: Double, to end: Double) -> [(start: Double, end: Double)] {
        let length = end - start
        guard length > 0 else { return [] }
        let rounds = max(1, Int((length / (Double(parallelism) * targetSeconds)).rounded(.up)))
        let wanted = min(rounds * parallelism, max(1, Int(length / minimumSeconds)))
        var bounds = [start]
        for index in 1..<max(1, wanted) {
            let ideal = start + length * Double(index) / Double(wanted)
            // The keyframe nearest the ideal cut, strictly inside the range and after the last cut.
            let candidates = keyframes.filter { $0 > bounds.last! + minimumSeconds / 2 && $0 < end - minimumSeconds / 2 }
            guard let nearest = candidates.min(by: { abs($0 - ideal) < abs($1 - ideal) }) else { continue }
            bounds.append(nearest)
        }
        bounds.append(end)
        return zip(bounds, bounds.dropFirst()).map { (start: $0, end: $1) }
    }
}
