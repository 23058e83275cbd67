import Foundation
import PhotoCommands

// mediajob-photo: thumbnail runs of photos, with libvips and without FFmpeg (issue 15: FFmpeg's
// libraries were a quarter of a thumbnail run's peak memory and most of its start-up). `mediajob`
// hands thumbnail runs to it (MediaProgram); it hands anything else to mediajob-media.
exit(await MediaProgramMain.run(PhotoCommands()))
