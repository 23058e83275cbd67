#ifndef MEDIAJOB_VIPS_SHIM_H
#define MEDIAJOB_VIPS_SHIM_H

// Fixed-arity wrappers over libvips for Swift, which cannot call C variadic functions such as
// vips_thumbnail(..., NULL) nor use C macros such as VIPS_INIT. Every function that returns int
// returns 0 on success and -1 on failure, with libvips' error buffer holding the reason.

#include <stddef.h>
#include <vips/vips.h>

// MARK: - Start-up and loaders

/// VIPS_INIT as a function, with libvips' plugin modules (`load_modules` non-zero) or without them.
/// Without them the start takes `VIPSHOME` as "/dev/null" (under which no module can exist) and
/// then binds libvips' text domain where a start with them binds it. Either way, `VIPSHOME` is
/// removed from the environment afterwards unless it was set before (libvips writes its guess
/// there), so that programs this process starts find libvips' modules their own way. A `VIPSHOME`
/// set before is libvips' to use: the modules are then loaded from it whatever `load_modules` says.
int shim_vips_init(const char *argv0, int load_modules);

/// Blocks untrusted loaders (SVG, PDF, ...) and turns the operation cache off.
void shim_vips_configure(void);

/// Whether an operation with this nickname exists in this libvips (for example "heifsave").
int shim_operation_exists(const char *nickname);

/// Whether the operation with this nickname is blocked by vips_block_untrusted_set().
int shim_operation_is_blocked(const char *nickname);

/// The nickname of the loader that recognises the file by its content, or NULL.
const char *shim_find_loader(const char *filename);

/// Opens a file with the given loader without the operation cache, so a replaced file is read
/// again. Reads the header only; pixels are decoded when the image is evaluated.
/// `sequential`: VIPS_ACCESS_SEQUENTIAL instead of VIPS_ACCESS_RANDOM. Fails on any decode error.
/// `all_pages`: every page (frame) stacked vertically, for loaders with an "n" option.
int shim_open(const char *loader, const char *filename, int sequential, int all_pages, VipsImage **out);

/// As shim_open, from bytes in memory with a buffer loader such as "jpegload_buffer". `copy`: 1
/// copies the bytes, so the image may outlive them; 0 borrows them, and they must stay valid for
/// as long as the image is used.
int shim_open_buffer(const char *loader, const void *data, size_t length, int sequential, int copy, VipsImage **out);

/// The loader recorded in the image's "vips-loader" metadata, or NULL. Owned by the image.
const char *shim_loader_name(VipsImage *image);

/// Shrink-on-load thumbnail: longest side `size` (the caller keeps it within the image's, as
/// libvips' "size down" picks a pyramid level too small), EXIF-rotated, fails on decode errors.
/// With `to_srgb` (for images with a profile) converted to sRGB through the profile; CMYK always
/// is, through its profile or libvips' CMYK one. Without a profile the shrink stays in the
/// image's own values (an import would resample in another space).
int shim_thumbnail(const char *filename, int size, int to_srgb, VipsImage **out);

/// As shim_thumbnail, from bytes in memory that must stay valid until the thumbnail is computed.
int shim_thumbnail_buffer(const void *data, size_t length, int size, int to_srgb, VipsImage **out);

/// A copy of 8-bit interleaved pixels; sRGB for 3 or 4 bands, B_W for 1 or 2.
int shim_from_memory(const void *data, size_t size, int width, int height, int bands, VipsImage **out);

// MARK: - Operations

int shim_autorot(VipsImage *in, VipsImage **out);
int shim_copy_memory(VipsImage *in, VipsImage **out);
int shim_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
/// Rotates clockwise by quarter_turns * 90 degrees; quarter_turns must be 1, 2 or 3.
int shim_rotate(VipsImage *in, VipsImage **out, int quarter_turns);
/// vips_resize with the Lanczos3 kernel and separate horizontal and vertical scales.
int shim_resize_lanczos3(VipsImage *in, VipsImage **out, double hscale, double vscale);
int shim_premultiply(VipsImage *in, VipsImage **out);
int shim_unpremultiply(VipsImage *in, VipsImage **out);
/// Casts to a VipsBandFormat, clipping values to its range.
int shim_cast(VipsImage *in, VipsImage **out, int format);
int shim_rint(VipsImage *in, VipsImage **out);
int shim_extract_bands(VipsImage *in, VipsImage **out, int first, int count);
int shim_bandjoin2(VipsImage *left, VipsImage *right, VipsImage **out);
/// out = a * in + b on every band.
int shim_linear1(VipsImage *in, VipsImage **out, double a, double b);
/// Multiplies each pixel by a rows x columns matrix given row by row.
int shim_recombine(VipsImage *in, VipsImage **out, const double *matrix, int rows, int columns);
int shim_flatten(VipsImage *in, VipsImage **out, const double *background, int count);
int shim_colourspace_srgb(VipsImage *in, VipsImage **out);
int shim_arrayjoin(VipsImage **in, int n, VipsImage **out, int across, int spacing,
                   const double *background, int count);
/// A contact sheet: the n images, 8-bit with the same number of bands and each at most box x box
/// pixels, in rows of `across`, each centred in a box x box square, the squares `spacing` pixels
/// apart, on the background colour (1 value, or one per band); the last row is padded with it.
/// The pixels of vips_arrayjoin with centred alignment and box spacing, without its one embed an
/// image, each of which evaluates the background colour again (about 0.7 ms of CPU an image).
int shim_sheet(VipsImage **in, int n, VipsImage **out, int across, int spacing, int box,
               const double *background, int count);
int shim_subtract(VipsImage *left, VipsImage *right, VipsImage **out);
int shim_multiply(VipsImage *left, VipsImage *right, VipsImage **out);
int shim_avg(VipsImage *in, double *out);

// MARK: - Colour profiles and metadata

/// A private view of `in` whose frames are `page_height` rows each (libvips' "page-height").
VipsImage *shim_view_with_page_height(VipsImage *in, int page_height);

/// The number of pages (frames) the file holds, from its "n-pages" header field; 1 when absent.
int shim_page_count(VipsImage *in);

/// Whether the image carries an embedded ICC profile.
int shim_has_icc(VipsImage *in);

/// 8-bit sRGB through the embedded ICC profile (libvips' built-in CMYK profile for a CMYK image
/// without one), relative colorimetric intent; the output carries libvips' sRGB profile.
int shim_icc_to_srgb(VipsImage *in, VipsImage **out);

/// Whether the image has GPS, serial-number, owner or maker-note EXIF fields, XMP, IPTC or comments.
int shim_has_private_metadata(VipsImage *in);

/// A private view of `in`'s pixels whose metadata (EXIF, XMP, IPTC, ICC, comments, orientation)
/// is `source`'s instead of its own; none when `source` is NULL. NULL on failure.
VipsImage *shim_view_with_metadata_of(VipsImage *in, VipsImage *source);

/// A private view of `in` ready for a saver: no orientation; unless `keep_all`, only the EXIF
/// fields ImageDescription, Artist, Copyright, DateTimeOriginal (with its sub-seconds and offset)
/// and the ICC profile; three- or four-band sRGB without a profile gets libvips' sRGB profile.
/// NULL on failure.
VipsImage *shim_view_for_saving(VipsImage *in, int keep_all);

// MARK: - Output

/// Output formats, in the order of the Swift ImageFormat cases.
typedef enum {
    SHIM_FORMAT_JPEG = 0,
    SHIM_FORMAT_WEBP = 1,
    SHIM_FORMAT_AVIF = 2,
    SHIM_FORMAT_PNG = 3,
} ShimFormat;

/// Saves with the image's metadata (prepare it with shim_view_for_saving); `quality` applies to
/// JPEG, WebP and AVIF, PNG uses compression 6.
int shim_save_file(VipsImage *in, ShimFormat format, const char *filename, int quality);
/// As shim_save_file, into a buffer the caller frees with g_free.
int shim_save_buffer(VipsImage *in, ShimFormat format, void **buffer, size_t *length, int quality);
/// Writes the pixels to a buffer the caller frees with g_free; NULL on failure.
void *shim_write_to_memory(VipsImage *in, size_t *length);

// MARK: - Stopping an evaluation

/// Asked during evaluation; nonzero means stop now.
typedef int (*shim_should_stop_fn)(void *context);

/// Watches evaluations of one image.
typedef struct ShimStopWatch ShimStopWatch;

/// A new image that shares `in`'s pixels but no other image's signals: a private place to watch.
VipsImage *shim_private_view(VipsImage *in);

/// Asks `should_stop` before and during every evaluation of `image` and kills the evaluation
/// when it answers nonzero. `image` must be a private view.
ShimStopWatch *shim_stop_watch_attach(VipsImage *image, shim_should_stop_fn should_stop, void *context);

/// Disconnects and frees the watch; returns whether a stop was requested.
int shim_stop_watch_detach(ShimStopWatch *watch);

// MARK: - Errors

/// Takes libvips' error buffer: a copy the caller frees with g_free; the buffer is cleared.
char *shim_error_take(void);

#endif
