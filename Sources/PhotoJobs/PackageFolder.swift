import Foundation
import JobEngine

/// Gathers committed workspace files into one folder of the workspace, ready to be published
/// with one rename. The files are hard links, so nothing is copied.
package enum PackageFolder {
    package static func assemble(_ names: [String], in workspace: Workspace, as folderName: String) throws -> URL {
        let folder = workspace.url(for: folderName)
        try DurableFiles.remove(folder)
        try DurableFiles.makeDirectory(folder)
        for name in names {
            try FileManager.default.linkItem(atPath: workspace.url(for: name).path, toPath: folder.appendingPathComponent(name).path)
        }
        try DurableFiles.sync(folder)
        return folder
    }
}
