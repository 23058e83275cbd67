/// One run of the shaders over a batch of one-plane or packed pictures: what ``GPURenderer``
/// records for a whole picture, for one strip of a picture too large for one buffer, or for one
/// plane of YUV pictures.
///
/// It takes a ``RenderRecipe``'s crop and turns of the uploaded pictures, and carries the box
/// shrink and the Lanczos tables explicitly, so that a strip of a picture uses the whole
/// picture's (its rows of the vertical table, renumbered from the first shrunk row it reads).
struct RenderPass {
    /// The uploaded pictures, their crop, turns and colour steps; its output size is ignored.
    var recipe: RenderRecipe
    /// Whole box-shrink factors per axis.
    var shrink: (x: Int, y: Int)
    /// The size after the box shrink.
    var shrunkWidth: Int, shrunkHeight: Int
    /// The output size.
    var width: Int, height: Int
    /// The weight tables of the two Lanczos passes (one tap, the sample itself, along an axis
    /// whose size does not change).
    var tables: (horizontal: LanczosTable, vertical: LanczosTable)
    /// Whether alpha is premultiplied while resizing: RGBA pictures whose size changes.
    var premultiplies: Bool

    /// The pass that renders the whole of `recipe`'s pictures.
    init(_ recipe: RenderRecipe) {
        self.recipe = recipe
        shrink = recipe.shrink
        (shrunkWidth, shrunkHeight) = (recipe.shrunkWidth, recipe.shrunkHeight)
        (width, height) = (recipe.width, recipe.height)
        let horizontal = Double(recipe.turnedWidth) / Double(shrink.x * recipe.width)
        let vertical = Double(recipe.turnedHeight) / Double(shrink.y * recipe.height)
        tables = (LanczosTable(count: recipe.width, scale: horizontal), LanczosTable(count: recipe.height, scale: vertical))
        premultiplies = recipe.channels == 4 && recipe.resizes
    }

    /// Whether a box shrink runs before the Lanczos passes (which otherwise read the uploaded
    /// pictures themselves).
    var boxShrinks: Bool { shrink.x > 1 || shrink.y > 1 }

    /// Bytes of one uploaded picture.
    var sourceBytes: Int { recipe.sourceWidth * recipe.sourceHeight * recipe.channels }

    /// The pass for output rows `rows` of this whole-picture pass, and the part of the uploaded
    /// picture it reads (in the source's coordinates).
    ///
    /// The rows read are those the vertical filter of `rows` touches, through the box shrink and
    /// back through the turn and crop; the strip renders them with this pass's shrink and
    /// tables, so its pixels are the whole picture's.
    func strip(_ rows: Range<Int>) -> (pass: RenderPass, source: RenderRecipe.Rect) {
        let (first, last) = (tables.vertical.first(rows.lowerBound), tables.vertical.first(rows.upperBound - 1))
        let shrunkRows = max(0, first)..<min(shrunkHeight, last + tables.vertical.taps)
        let turnedRows = shrunkRows.lowerBound * shrink.y..<min(shrunkRows.upperBound * shrink.y, recipe.turnedHeight)
        let crop = recipe.crop
        // Turned row y is crop row y (no turn), crop column y (one turn), crop row h-1-y (two),
        // crop column w-1-y (three).
        let source: RenderRecipe.Rect = switch recipe.quarterTurns {
        case 1: .init(x: crop.x + turnedRows.lowerBound, y: crop.y, width: turnedRows.count, height: crop.height)
        case 2: .init(x: crop.x, y: crop.y + crop.height - turnedRows.upperBound, width: crop.width, height: turnedRows.count)
        case 3: .init(x: crop.x + crop.width - turnedRows.upperBound, y: crop.y, width: turnedRows.count, height: crop.height)
        default: .init(x: crop.x, y: crop.y + turnedRows.lowerBound, width: crop.width, height: turnedRows.count)
        }
        var pass = self
        (pass.recipe.sourceWidth, pass.recipe.sourceHeight) = (source.width, source.height)
        pass.recipe.crop = .init(x: 0, y: 0, width: source.width, height: source.height)
        pass.shrunkHeight = shrunkRows.count
        pass.height = rows.count
        pass.tables.vertical = tables.vertical.rows(rows, shiftedBy: -shrunkRows.lowerBound)
        return (pass, source)
    }
}
