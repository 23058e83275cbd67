import Foundation
import Glibc
import Synchronization
import Vips

/// Contact-sheet cells made by a thumbnail run's chunks as they commit each thumbnail, for the
/// package stage of the same job in the same process to join instead of decoding every
/// thumbnail again.
///
/// The chunks run on every core at once, while the package stage starts after the last of them:
/// a cell made there keeps the cores busy instead of the stage's wait. A cell is made from the
/// committed thumbnail file, by the same ``VipsImage/sheetCell(size:background:)`` the package
/// stage uses, so a sheet made of kept cells has the same bytes as one made of decoded
/// thumbnails. A cell is handed out only for the file it was made from (the same device, inode,
/// size and modification time), with the same cell size and background; anything else — a
/// chunk run by another process, a thumbnail made again since — is decoded as before.
///
/// Memory is bounded by ``budget``: once it is used, no more cells are kept (the package stage
/// decodes the rest). Cells of one job's workspace are kept at a time: a chunk of another job
/// drops the cells of the one before.
package final class SheetCellCache: Sendable {
    /// A kept cell and the thumbnail's own size (for the run's index).
    package struct Cell {
        var image: VipsImage
        var width: Int
        var height: Int

        /// The bytes of the cell's pixels, which ``budget`` counts.
        var bytes: Int { image.width * image.height * image.bands }
    }

    /// What a cell was made from: the thumbnail file, and the sheet's cell size and background.
    private struct Source: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var cellSize: Int
        var background: [Double]

        static func == (a: Source, b: Source) -> Bool {
            (a.device, a.inode, a.size, a.cellSize, a.background) == (b.device, b.inode, b.size, b.cellSize, b.background)
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }

        /// The identity of the file at `path` now, or `nil` when it cannot be read.
        init?(path: String, cellSize: Int, background: [Double]) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            (device, inode, size, modified) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size), info.st_mtim)
            (self.cellSize, self.background) = (cellSize, background)
        }
    }

    private struct State {
        var workspace: URL?
        var cells: [String: (source: Source, cell: Cell)] = [:]
        var bytes = 0
    }

    /// Most bytes of cell pixels kept at once: 100 cells of the default 256 pixels (a full sheet,
    /// ``ThumbnailJob/defaultCellsPerSheet``) take up to 19 MiB.
    package let budget: Int

    private let state = Mutex(State())

    package init(budget: Int = 24 << 20) {
        self.budget = budget
    }

    /// Whether a cell of `size` × `size` pixels (the most one can take) would still be kept for a
    /// chunk of `workspace`: when not, making one is wasted work.
    package func hasRoom(in workspace: URL, size: Int) -> Bool {
        state.withLock { state in
            state.workspace != workspace || state.bytes + size * size * 3 <= budget
        }
    }

    /// Keeps the cell made from the thumbnail at `path`, in `workspace`, when it fits the budget.
    package func keep(_ cell: Cell, madeFrom path: String, in workspace: URL, cellSize: Int, background: [Double]) {
        guard let source = Source(path: path, cellSize: cellSize, background: background) else { return }
        let bytes = cell.bytes
        state.withLock { state in
            if state.workspace != workspace { state = State(workspace: workspace) }
            if let old = state.cells[path] { state.bytes -= old.cell.bytes }
            guard state.bytes + bytes <= budget else {
                state.cells[path] = nil
                return
            }
            state.cells[path] = (source, cell)
            state.bytes += bytes
        }
    }

    /// Takes the cell made from the thumbnail at `path` in `workspace` with this cell size and
    /// background, if one is kept and the file is still the one it was made from.
    package func take(madeFrom path: String, in workspace: URL, cellSize: Int, background: [Double]) -> Cell? {
        let kept: (source: Source, cell: Cell)? = state.withLock { state in
            guard state.workspace == workspace, let kept = state.cells.removeValue(forKey: path) else { return nil }
            state.bytes -= kept.cell.bytes
            return kept
        }
        guard let kept, Source(path: path, cellSize: cellSize, background: background) == kept.source else { return nil }
        return kept.cell
    }

    /// Drops every cell kept for `workspace` (its sheets are made, or it is gone).
    package func drop(_ workspace: URL) {
        state.withLock { state in
            if state.workspace == workspace { state = State() }
        }
    }
}
