import Foundation
import GPURender
import JobEngine
import TaskContract
import Vips

/// `mediajob thumbnail`: small previews of photos and videos, an index, and a contact sheet.
///
/// Photos go through libvips' shrink-on-load thumbnailing in this process; a video gives a
/// representative frame (the most detailed of several between 10 % and 70 % of its length, so
/// never a black or first frame), which, like telling a video from a bad file, is the work of
/// the ``VideoInputs`` the program gives. A chunk is a batch of items bounded in count and bytes.
public struct ThumbnailJob: JobKind {
    /// The thumbnail run's settings.
    public struct Spec: Codable, Sendable, Equatable {
        public var items: [InputItem]
        /// The longest side of a thumbnail, in pixels.
        public var size: Int
        public var format: String
        public var quality: Int
        /// The folder that will hold the thumbnails, `index.json` and the contact sheets
        /// (``BatchSettings/output``), and how bad items and limits are treated; only a GPU
        /// preference of `on` takes photos to the GPU (see ``thumbnail(of:spec:gpu:)``).
        public var settings: BatchSettings
        /// What thumbnails keep of their photo's metadata. Thumbnails are always sRGB.
        public var metadata: MetadataPolicy
        /// Most thumbnails on one contact sheet, at least 1: more make numbered sheets, so that
        /// the memory a sheet takes does not grow with the number of photos.
        public var cellsPerSheet: Int

        public init(items: [InputItem], size: Int, format: String, quality: Int, settings: BatchSettings,
                    metadata: MetadataPolicy = .safe, cellsPerSheet: Int = ThumbnailJob.defaultCellsPerSheet) {
            self.items = items
            self.size = size
            self.format = format
            self.quality = quality
            self.settings = settings
            self.metadata = metadata
            self.cellsPerSheet = cellsPerSheet
        }

        /// The job's title: states the result.
        public var title: String { "Thumbnails of \(Plural.of(items.count, "file"))" }
    }

    /// The thumbnails' format when the run names none.
    public static let defaultFormat = ImageFormat.jpeg

    /// The contact sheets' format.
    public static let sheetFormat = ImageFormat.jpeg

    /// The libvips plugin modules a run of `items` with thumbnails in `format` needs: none when
    /// every input starts like a format built into libvips and `format` is one it writes itself
    /// (the contact sheets are JPEGs), so that its process can start without them; all otherwise.
    /// An input replaced afterwards by one only a module reads (a HEIC) is then not a photo to the
    /// process, met as a video is (``PhotoOnlyInputs``).
    public static func vipsModules(for items: [InputItem], format: ImageFormat) -> Vips.Modules {
        BuiltInFormats.modules(reading: items.map(\.path), writing: [format, sheetFormat])
    }

    /// The default of ``Spec/cellsPerSheet``: ten rows of ten, 2,632 pixels square at the
    /// default size of 256, whose cells take about 20 MB while the sheet is made.
    public static let defaultCellsPerSheet = 100

    /// The most thumbnails of `size` pixels one contact sheet can hold: a sheet is a JPEG, at
    /// most 65,535 pixels wide, and has ⌈√cells⌉ columns of `size` pixels, 8 apart.
    public static func mostCellsPerSheet(size: Int) -> Int {
        let columns = (65_535 + 8) / (size + 8)
        return columns * columns
    }

    /// Most items in one chunk, and most bytes of input.
    package static let batchItems = 8
    package static let batchBytes: Int64 = 64 << 20

    private let environment: MediaEnvironment
    private let videos: any VideoInputs
    /// Contact-sheet cells the chunks make as they commit thumbnails, for the package stage.
    private let keptCells = SheetCellCache()

    /// A thumbnail kind that renders with what `environment` offers and takes what libvips
    /// cannot thumbnail (videos, bad files) to `videos`.
    public init(environment: MediaEnvironment = MediaEnvironment(), videos: any VideoInputs) {
        self.environment = environment
        self.videos = videos
    }

    public var name: String { "thumbnail" }

    public var showsCountsInSubtitle: Bool { true }

    public var defaultCosts: [Stage: Double] { [.render: 0.2, .package: 0.3] }

    /// The same thumbnails: the inputs (with their size and modification time), size, format,
    /// quality, `--skip-bad`, thumbnails per contact sheet, and the output folder.
    public func workIdentity(of spec: Spec) throws -> any Encodable {
        WorkIdentity(inputs: spec.items.map(\.path), settings: Settings(spec), destination: spec.settings.output)
    }

    private struct Settings: Encodable {
        var size: Int, format: String, quality: Int, metadata: MetadataPolicy, skipBad: Bool, cellsPerSheet: Int

        init(_ spec: Spec) {
            (size, format, quality, metadata, skipBad) = (spec.size, spec.format, spec.quality, spec.metadata, spec.settings.skipBad)
            cellsPerSheet = spec.cellsPerSheet
        }
    }

    public func plan(_ spec: Spec) throws -> JobPlan {
        guard !spec.items.isEmpty else { throw InputError(message: "no photos or videos were found in the inputs") }
        guard spec.cellsPerSheet >= 1 else { throw InputError(message: "a contact sheet needs room for at least 1 thumbnail") }
        _ = try MediaSettings.imageFormat(spec.format)
        if !spec.settings.skipBad {
            try PhotoLibraries.initialize()
            _ = try UnusableInputs.collectConcurrently(spec.items.indices) { [videos] index in
                let item = spec.items[index]
                do {
                    _ = try videos.classify(item.path, settings: spec.settings, scanKeyframes: false)
                } catch {
                    throw ItemFailure(item: item.path, reason: error.personMessage)
                }
            }
        }
        let chunks = try Self.batches(of: spec.items).enumerated().map { number, members in
            PlannedChunk(key: "batch-\(number)", stage: .render, detail: try JSONEncoder().encode(members))
        }
        return spec.settings.plan(chunks)
    }

    /// The items' indexes in batches of at most ``batchItems`` items and ``batchBytes`` bytes, one
    /// a chunk, in the order the chunks run: the largest files first (ties in input order).
    ///
    /// A photo's thumbnail costs about 8 ms plus 22 ms a megabyte of JPEG (`vipsthumbnail` on the
    /// bench's photos), so taken in input order the chunk of the largest files could come last and
    /// keep one core busy while the others have nothing left to take; largest first, the chunks
    /// of small files fill the end (longest processing time first). Outputs do not depend on the
    /// order: the index and the contact sheets follow the input order.
    package static func batches(of items: [InputItem]) -> [[Int]] {
        let order = items.indices.sorted { items[$0].size > items[$1].size || (items[$0].size == items[$1].size && $0 < $1) }
        var batches: [[Int]] = [[]]
        var bytes: Int64 = 0
        for index in order {
            let item = items[index]
            if batches[batches.count - 1].count == batchItems || (bytes + item.size > batchBytes && !batches[batches.count - 1].isEmpty) {
                batches.append([])
                bytes = 0
            }
            batches[batches.count - 1].append(index)
            bytes += item.size
        }
        return batches
    }

    public func run(_ chunk: PlannedChunk, of spec: Spec, in context: JobContext) async throws -> String? {
        try PhotoLibraries.initialize()
        let members = try JSONDecoder().decode([Int].self, from: chunk.detail ?? Data())
        let format = try MediaSettings.imageFormat(spec.format)
        let gpu = spec.settings.gpu == .on ? environment.renderer() : nil
        var failures: [(position: Int, failure: ItemFailure)] = []
        var paths = Set<String>()
        // The chunk's thumbnails are durable together, with one sync of the folder; each is
        // committed while the next is made.
        try context.workspace.committingTogether { workspace in
            let commits = ChunkCommits()
            do {
                for (position, index) in members.enumerated() {
                    try context.checkStop()
                    let item = spec.items[index]
                    let name = "\(item.name).\(format.fileExtension)"
                    guard !workspace.contains(name) else { continue } // made before a crash: keep it
                    var made: VipsImage?
                    do {
                        try context.guarding(item.path, skipBad: spec.settings.skipBad) {
                            try ItemFailure.requireReadable(item.path, item: item.path)
                            let (thumbnail, path) = try self.thumbnail(of: item, spec: spec, gpu: gpu)
                            paths.insert(path.rawValue)
                            made = thumbnail
                        }
                    } catch let failure as ItemFailure {
                        failures.append((position, failure)) // the batch's other items still go
                    }
                    guard let thumbnail = made else { continue }
                    try commits.add(at: position) { [self] in
                        try context.guarding(item.path, skipBad: spec.settings.skipBad) {
                            try workspace.commit(name) { temporary in
                                try thumbnail.save(to: temporary.path, format: format, quality: spec.quality,
                                                   metadata: spec.metadata, shouldStop: { [context] in context.isStopRequested })
                            }
                            keepSheetCell(of: name, in: workspace, spec: spec)
                        }
                    }
                }
                failures += try commits.finish()
            } catch let needs as NeedsMediaProgram {
                // An input only a program with FFmpeg can judge (see ``PhotoOnlyInputs``): the job
                // pauses, this chunk to be redone by the program the job is handed to.
                commits.waitForAll()
                try FaultPoints.step(.handOver, operation: "hand over", path: needs.path) {}
                context.task.expire()
                throw JobStopped()
            } catch {
                commits.waitForAll()
                throw error
            }
        }
        if !failures.isEmpty {
            throw ItemFailures(failures: failures.sorted { $0.position < $1.position }.map(\.failure))
        }
        return paths.isEmpty ? RenderPath.cpu.rawValue : paths.sorted().joined(separator: "+")
    }

    public func finalize(_ spec: Spec, chunks: PlannedChunks, in context: JobContext) async throws -> URL {
        context.task.updateTitle(context.task.title, subtitle: "contact sheet")
        defer { keptCells.drop(context.workspace.directory) }
        return try ThumbnailPackager(spec: spec, context: context, keptCells: keptCells).package()
    }

    /// Makes the contact-sheet cell of the thumbnail just committed as `name`, while this chunk's
    /// core is working anyway, and keeps it for the package stage (see ``SheetCellCache``). A cell
    /// that cannot be made, or kept, is made there instead, which reports what goes wrong.
    private func keepSheetCell(of name: String, in workspace: Workspace, spec: Spec) {
        guard keptCells.hasRoom(in: workspace.directory, size: spec.size) else { return }
        let path = workspace.url(for: name).path
        let background = ThumbnailPackager.sheetBackground
        guard let thumbnail = try? ThumbnailPackager.openForSheet(path, limits: spec.settings.imageLimits),
              let cell = try? thumbnail.sheetCell(size: spec.size, background: background) else { return }
        keptCells.keep(SheetCellCache.Cell(image: cell, width: thumbnail.width, height: thumbnail.height), madeFrom: path,
                       in: workspace.directory, cellSize: spec.size, background: background)
    }

    /// A photo's thumbnail — libvips' shrink-on-load thumbnail, or, when `gpu` is given, a full
    /// decode resized on it — or a video's representative frame scaled down; and the path that
    /// made it.
    ///
    /// Only a preference of `on` gives a `gpu`: `auto` keeps photos on the CPU, where JPEG and
    /// WebP decode straight at 1/2, 1/4 or 1/8 size, which costs less than decoding the full
    /// picture for the GPU to reduce.
    package func thumbnail(of item: InputItem, spec: Spec, gpu: GPURenderer?) throws -> (VipsImage, RenderPath) {
        let limits = spec.settings
        // Most inputs are photos: the shrink-on-load thumbnail reads the header itself, so a
        // photo is not classified first. Only what it cannot make (a video, a bad file) is
        // classified, which finds the video or the error to report.
        if gpu == nil, let thumbnail = try? VipsImage.thumbnail(item.path, size: spec.size, limits: limits.imageLimits) {
            return (thumbnail, .cpu)
        }
        switch try videos.classify(item.path, settings: limits, scanKeyframes: true) {
        case .photo:
            if let gpu {
                var edits = ProjectManifest.Edits()
                edits.maxWidth = spec.size
                edits.maxHeight = spec.size
                let image = try VipsImage.load(item.path, limits: limits.imageLimits, access: .sequential).colourManaged(.srgb)
                let (thumbnail, path) = try PhotoRendering.apply(edits, to: image, gpu: { gpu })
                if path == .gpu { return (thumbnail, path) }
            }
            return (try VipsImage.thumbnail(item.path, size: spec.size, limits: limits.imageLimits), .cpu)
        case .video:
            return (try videos.representativeFrame(of: item.path, settings: limits, maxDimension: spec.size), .cpu)
        }
    }
}
