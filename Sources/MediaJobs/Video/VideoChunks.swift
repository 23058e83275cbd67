import FFmpeg
import Foundation
import GPURender
import JobEngine
import MediaInputLimits
import PhotoJobs
import Vips

/// The video work media jobs share: encode a segment, extract the audio, and join the segments
/// and audio into one checked MP4, each committed to the job's workspace.
enum VideoChunks {
    /// The workspace name of segment `index` of the video whose output is called `output`.
    static func segmentName(_ output: String, _ index: Int) -> String { "segment-\(output)-\(index).mp4" }

    /// The workspace name of audio track `track` of the video whose output is called `output`:
    /// MP4, which keeps AAC priming and cuts as edit lists and times in samples.
    static func audioName(_ output: String, track: Int) -> String { "audio-\(output)-\(track).m4a" }

    /// Encodes `start..<end` of `source` with `edit` and `encoding` into the workspace file `name`,
    /// rendering the pictures on the GPU that `gpu` gives (asked only when the edit changes them),
    /// once the encoder's footprint (from the source's size: the output is never larger) fits in `budget`.
    /// - Returns: the path that rendered the pictures.
    static func segment(_ source: String, from start: Double, to end: Double, edit: VideoEdit, encoding: VideoEncoding,
                        as name: String, limits: MediaLimits, gpu: @escaping () -> GPURenderer?, budget: EncoderBudget,
                        context: JobContext) throws -> RenderPath {
        let video = try MediaProbe.probe(source, limits: limits, scanKeyframes: false, shouldStop: stopCheck(context)).video
        let footprint = EncoderFootprint(encoding: encoding, width: video?.width ?? 0, height: video?.height ?? 0)
        let rendered = RenderedFlag()
        let waits = { (running: Int) in
            context.journal(.waited, ["for": "encoder memory", "encoders_running": String(running),
                                      "footprint_bytes": String(footprint.bytes), "budget_bytes": String(budget.bytes)])
        }
        let encoded: Void? = try budget.whenAvailable(footprint.bytes, shouldStop: stopCheck(context), waits: waits) {
            // The closed encoder's pictures go back to the system before the budget frees their
            // bytes: malloc keeps what is freed for reuse, and the next segment's encoder may
            // allocate in another arena, beside a freed encoder's worth still resident.
            defer { FFmpeg.releaseFreedMemory() }
            try FaultPoints.step(.encoder, operation: "open the encoder", path: name) {}
            return try context.workspace.commit(name) { temporary in
                _ = try SegmentEncoder.encode(source: source, from: start, to: end, edit: edit, encoding: encoding,
                                              output: temporary.path, limits: limits, shouldStop: stopCheck(context),
                                              renderer: GPUPictureRenderer.factory(gpu, rendered: rendered))
            }
        }
        guard encoded != nil else {
            throw FFmpegError(.stopped, operation: "wait for encoder memory", path: source, reason: "stop requested")
        }
        return rendered.isSet ? .gpu : .cpu
    }

    /// Copies or re-encodes audio track `track` of `start..<end` of `source` into the workspace
    /// file `name`, timed from the video's first frame at or after `start` (where its segments
    /// begin), so that sound and pictures stay in sync.
    static func audio(_ source: String, track: Int, from start: Double, to end: Double, mode: AudioMode, as name: String,
                      limits: MediaLimits, context: JobContext) throws {
        let firstFrame = try MediaProbe.firstFrameTime(source, from: start, limits: limits, shouldStop: stopCheck(context))
        try context.workspace.commit(name) { temporary in
            try AudioTrack.extract(source: source, track: track, from: firstFrame, to: end, mode: mode,
                                   output: temporary.path, limits: limits, shouldStop: stopCheck(context))
        }
    }

    /// Joins the segments and audio that `chunks` (one item's) made for the output called `output`
    /// into `<output>.mp4` in the workspace, with the container tags of `source` that `policy`
    /// keeps (``VideoMetadata``).
    /// - Returns: the file's name in the workspace, and the source as probed (its tags and the
    ///   streams the output does not keep).
    static func joinItem(_ output: String, source: String, chunks: [MediaChunk], policy: MetadataPolicy,
                         limits: MediaLimits, context: JobContext) throws -> (name: String, source: MediaInfo) {
        let info = try MediaProbe.probe(source, limits: limits, scanKeyframes: false, shouldStop: stopCheck(context))
        var segments: [String] = [], expected = 0.0
        for case .segment(_, let number, let start, let end) in chunks {
            segments.append(segmentName(output, number))
            expected += end - start
        }
        let name = "\(output).mp4"
        let audio = chunks.compactMap(\.audioTrack).sorted().map { audioName(output, track: $0) }
        try join(segments, audio: audio, metadata: VideoMetadata.kept(info.tags, policy: policy), expectedSeconds: expected,
                 as: name, limits: limits, context: context)
        return (name, info)
    }

    /// Joins the workspace's `segments` (and `audio`) into the workspace file `name` without
    /// re-encoding, then checks it: every packet read strictly and counted, every keyframe (each
    /// segment's first) decoded, and the length `expectedSeconds` within two frames.
    private static func join(_ segments: [String], audio: [String], metadata: [String: String], expectedSeconds: Double,
                             as name: String,
                     limits: MediaLimits, context: JobContext) throws {
        let workspace = context.workspace
        try workspace.commit(name) { temporary in
            try SegmentJoiner.join(segments: segments.map { workspace.url(for: $0).path }, audio: audio.map { workspace.url(for: $0).path },
                                   output: temporary.path, metadata: metadata, shouldStop: stopCheck(context))
        }
        let verified = try MediaVerifier.verify(workspace.url(for: name).path, limits: limits, depth: .keyframes)
        let frame = verified.frames > 0 ? verified.duration / Double(verified.frames) : 0.1
        guard verified.frames > 0, abs(verified.duration - expectedSeconds) <= max(2 * frame, 0.1) else {
            throw PackageError.invalidVideo(name, "\(verified.frames) frames over \(verified.duration) s, expected \(expectedSeconds) s")
        }
    }

    private static func stopCheck(_ context: JobContext) -> @Sendable () -> Bool {
        { [context] in context.isStopRequested }
    }
}
