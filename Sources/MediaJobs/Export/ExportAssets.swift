import Foundation
import JobEngine

/// Where an export's assets and intermediate files are, and how they are named.
enum ExportAssets {
    /// The asset's file, resolved inside the project (a symbolic link leading out is refused).
    static func path(of index: Int, in spec: ExportJob.Spec) throws -> String {
        let folder = URL(fileURLWithPath: spec.project)
        return try ProjectPaths.resolve(spec.manifest.assets[index].path, in: folder, field: "assets[\(index)].path",
                                        manifest: folder.appendingPathComponent(ProjectLoader.manifestName).path).path
    }

    /// The asset in the person's words: `assets[2] (photos/beach.jpg)`.
    static func describe(_ index: Int, in spec: ExportJob.Spec) -> String {
        "assets[\(index)] (\(spec.manifest.assets[index].path))"
    }

    /// The name of a finished asset in the package.
    static func outputName(_ output: String, extension ext: String) -> String { "\(output).\(ext)" }
}
