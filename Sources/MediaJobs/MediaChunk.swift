import FFmpeg
import Foundation
import JobEngine
import MediaInputLimits
import TaskContract
import Vips

/// What one chunk of a media job (export, compress) does, stored as the chunk's detail when the
/// job is planned. `item` is the asset's or input's position.
enum MediaChunk: Codable, Equatable, Sendable {
    /// Decode, edit and encode one image.
    case image(item: Int)
    /// Decode, edit and encode one keyframe-aligned range of a video's frames.
    case segment(item: Int, index: Int, start: Double, end: Double)
    /// Copy or re-encode one audio track of a video over its kept range; `track` counts the
    /// video's audio tracks from 0 (`nil` in jobs planned before videos kept every track: 0).
    case audio(item: Int, start: Double, end: Double, track: Int?)
    /// An item that could not be read when the job was planned; running it tries again and
    /// reports why it fails.
    case unreadable(item: Int)

    var item: Int {
        switch self {
        case .image(let item), .segment(let item, _, _, _), .audio(let item, _, _, _), .unreadable(let item): item
        }
    }

    /// The chunks for item `item` at `path`, whose outputs are called `output`: one for an image;
    /// for a video, its segments over `start..<end` (end: the video's end when `nil`), none more
    /// work than `video` allows, and each of its audio tracks. Each states its work: megapixels
    /// for an image, ``VideoWork`` units for a segment, seconds for an audio track.
    /// - Parameter skipBad: for a file neither library reads, plan one chunk that will report
    ///   the problem (and be skipped) instead of throwing.
    /// - Throws: ``ItemFailure`` naming the item as `described` for a file neither library reads,
    ///   unless `skipBad`.
    static func plan(item: Int, described: String, path: String, output: String, start: Double, end: Double?,
                     video: VideoWork, limits: MediaLimits, imageLimits: ImageLimits, skipBad: Bool) throws -> [PlannedChunk] {
        let kind: AssetKind?
        do {
            kind = try AssetProbe.classify(path, limits: limits, imageLimits: imageLimits)
        } catch {
            guard skipBad else { throw ItemFailure(item: described, reason: error.personMessage) }
            kind = nil
        }
        switch kind {
        case .image(let width, let height):
            return [try MediaChunk.image(item: item).planned(output: output, work: Double(width * height) / 1e6)]
        case .video(let info):
            guard let stream = info.video else { fallthrough } // AssetProbe makes videos only of files with one
            let end = min(end ?? info.duration, info.duration)
            let segments = video.planner(for: stream).segments(keyframes: info.keyframes, from: start, to: end)
            let pictures = try segments.enumerated().map { index, range in
                try MediaChunk.segment(item: item, index: index, start: range.start, end: range.end)
                    .planned(output: output, work: video.work(stream, seconds: range.end - range.start))
            }
            return try pictures + info.audioTracks.indices.map {
                try MediaChunk.audio(item: item, start: start, end: end, track: $0).planned(output: output, work: end - start)
            }
        case nil:
            return [try MediaChunk.unreadable(item: item).planned(output: output, work: 1)]
        }
    }

    /// The work of packaging what `chunks` make, in megapixels of output: an image's own, and a
    /// segment's ``VideoWork`` units by the million (about its megapixel-frames).
    static func packageWork(of chunks: [PlannedChunk]) -> Double {
        chunks.reduce(0) { total, chunk in
            total + (chunk.stage == .render ? chunk.work : chunk.stage == .encode ? chunk.work / 1e6 : 0)
        }
    }

    var isImage: Bool { if case .image = self { true } else { false } }

    /// The audio track this chunk takes, if it is an audio chunk.
    var audioTrack: Int? { if case .audio(_, _, _, let track) = self { track ?? 0 } else { nil } }

    /// The chunk as planned: a key naming its output, its stage, this as its detail, and `work`.
    func planned(output: String, work: Double) throws -> PlannedChunk {
        let (key, stage): (String, Stage) = switch self {
        case .image: ("image-\(output)", .render)
        case .segment(_, let index, _, _): ("segment-\(output)-\(index)", .encode)
        case .audio: ("audio-\(output)-\(audioTrack!)", .audio)
        case .unreadable: ("unreadable-\(output)", .render)
        }
        return PlannedChunk(key: key, stage: stage, detail: try JSONEncoder().encode(self), work: work)
    }

    init(_ chunk: PlannedChunk) throws {
        self = try JSONDecoder().decode(MediaChunk.self, from: chunk.detail ?? Data())
    }
}
