import FFmpeg
import Foundation
import JobEngine
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

    /// The chunks for item `item` at `path`: one for an image; for a video, its segments over
    /// `start..<end` (end: the video's end when `nil`) and each of its audio tracks; one that will report the
    /// problem for a file neither library reads.
    static func plan(item: Int, path: String, start: Double, end: Double?, planner: SegmentPlanner,
                     limits: MediaLimits, imageLimits: ImageLimits) -> [MediaChunk] {
        switch try? AssetProbe.classify(path, limits: limits, imageLimits: imageLimits) {
        case .image:
            return [.image(item: item)]
        case .video(let info):
            let end = min(end ?? info.duration, info.duration)
            let segments = planner.segments(keyframes: info.keyframes, from: start, to: end).enumerated()
                .map { MediaChunk.segment(item: item, index: $0.offset, start: $0.element.start, end: $0.element.end) }
            return segments + info.audioTracks.indices.map { .audio(item: item, start: start, end: end, track: $0) }
        case nil:
            return [.unreadable(item: item)]
        }
    }

    var isImage: Bool { if case .image = self { true } else { false } }

    /// The audio track this chunk takes, if it is an audio chunk.
    var audioTrack: Int? { if case .audio(_, _, _, let track) = self { track ?? 0 } else { nil } }

    /// The chunk as planned: a key naming its output, its stage, and this as its detail.
    func planned(output: String) throws -> PlannedChunk {
        let (key, stage): (String, Stage) = switch self {
        case .image: ("image-\(output)", .render)
        case .segment(_, let index, _, _): ("segment-\(output)-\(index)", .encode)
        case .audio: ("audio-\(output)-\(audioTrack!)", .encode)
        case .unreadable: ("unreadable-\(output)", .render)
        }
        return PlannedChunk(key: key, stage: stage, detail: try JSONEncoder().encode(self))
    }

    init(_ chunk: PlannedChunk) throws {
        self = try JSONDecoder().decode(MediaChunk.self, from: chunk.detail ?? Data())
    }
}
