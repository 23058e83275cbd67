/// What `Scripts/gpu-check` prepares for the `gpu-check` program to run on another machine: the
/// reference pictures (inputs and the CPU path's outputs, raw files beside the manifest), the
/// tolerances the tests use, and the CPU path's figures measured where it was prepared.
public struct GPUCheckManifest: Codable, Sendable {
    /// A photo: an 8-bit input rendered by a recipe to RGBA, compared with the CPU path's output.
    public struct Photo: Codable, Sendable {
        /// What the check is called in the results.
        public var name: String
        /// The edits as the GPU renders them.
        public var recipe: RenderRecipe
        /// The file of the input picture, laid out as ``GPURenderer/Input/packed`` says.
        public var input: String
        /// The file of the CPU path's output: `width × height` pixels of `recipe.channels` bytes.
        public var reference: String

        /// A photo check.
        public init(name: String, recipe: RenderRecipe, input: String, reference: String) {
            self.name = name
            self.recipe = recipe
            self.input = input
            self.reference = reference
        }
    }

    /// Video pictures: YUV 4:2:0 inputs rendered to YUV 4:2:0, compared with the CPU path's.
    public struct Video: Codable, Sendable {
        /// What the check is called in the results.
        public var name: String
        /// The edits as the GPU renders them.
        public var recipe: RenderRecipe
        /// The output's YUV matrix: luma weights of red and blue, and the range.
        public var lumaRed: Double, lumaBlue: Double, fullRange: Bool
        /// How many pictures.
        public var count: Int
        /// The file of the input pictures, planes back to back, no padding.
        public var input: String
        /// The file of the CPU path's outputs, laid out as the inputs.
        public var reference: String
        /// The PSNR the check needs, dB.
        public var tolerance: Double

        /// A video check.
        public init(name: String, recipe: RenderRecipe, lumaRed: Double, lumaBlue: Double, fullRange: Bool,
                    count: Int, input: String, reference: String, tolerance: Double) {
            self.name = name
            self.recipe = recipe
            self.lumaRed = lumaRed
            self.lumaBlue = lumaBlue
            self.fullRange = fullRange
            self.count = count
            self.input = input
            self.reference = reference
            self.tolerance = tolerance
        }
    }

    /// The CPU path's throughput where the check was prepared (`mediajob probe --benchmark`'s).
    public struct CPUFigures: Codable, Sendable {
        /// Source megapixels a second, photos (6 MP fitted to 1600 pixels with a colour change).
        public var photoMegapixelsPerSecond: Double
        /// 1080p → 720p frames a second with a colour change.
        public var framesPerSecond: Double
        /// Where they were measured.
        public var machine: String

        /// The figures.
        public init(photoMegapixelsPerSecond: Double, framesPerSecond: Double, machine: String) {
            self.photoMegapixelsPerSecond = photoMegapixelsPerSecond
            self.framesPerSecond = framesPerSecond
            self.machine = machine
        }
    }

    /// The photo checks.
    public var photos: [Photo]
    /// The video checks.
    public var videos: [Video]
    /// The PSNR photos need, dB.
    public var photoTolerance: Double
    /// The CPU path's figures.
    public var cpu: CPUFigures

    /// A manifest.
    public init(photos: [Photo], videos: [Video], photoTolerance: Double, cpu: CPUFigures) {
        self.photos = photos
        self.videos = videos
        self.photoTolerance = photoTolerance
        self.cpu = cpu
    }
}
