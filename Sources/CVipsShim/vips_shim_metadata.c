// Colour profiles, the metadata an output carries, and the frames of an animation.
#include <string.h>
#include "vips_shim.h"

// Fields a saver may turn into metadata in the file; everything else on an image (size, format,
// resolution, the loader's bookkeeping) is left alone.
static const char *const shim_metadata_prefixes[] = {
    "exif-", "xmp-data", "iptc-data", "photoshop-data", "icc-profile-data", "png-comment-",
    "jpeg-thumbnail-data", "gif-comment", "orientation",
};

// What the safe policy keeps: the EXIF container (libvips rebuilds it from the fields kept),
// the colour profile, capture time, description, artist and copyright.
static const char *const shim_safe_fields[] = {
    "exif-data", "icc-profile-data",
    "exif-ifd0-ImageDescription", "exif-ifd0-Artist", "exif-ifd0-Copyright",
    "exif-ifd2-DateTimeOriginal", "exif-ifd2-SubSecTimeOriginal", "exif-ifd2-OffsetTimeOriginal",
};

static int shim_is_metadata(const char *name) {
    for (size_t i = 0; i < G_N_ELEMENTS(shim_metadata_prefixes); i++)
        if (g_str_has_prefix(name, shim_metadata_prefixes[i]))
            return 1;
    return 0;
}

static int shim_is_safe(const char *name) {
    for (size_t i = 0; i < G_N_ELEMENTS(shim_safe_fields); i++)
        if (strcmp(name, shim_safe_fields[i]) == 0)
            return 1;
    return 0;
}

static int shim_has_exif_field(VipsImage *image) {
    gchar **fields = vips_image_get_fields(image);
    int found = 0;
    for (gchar **field = fields; *field && !found; field++)
        found = g_str_has_prefix(*field, "exif-ifd");
    g_strfreev(fields);
    return found;
}

int shim_has_private_metadata(VipsImage *in) {
    static const char *const prefixes[] = {
        "exif-ifd3-", "exif-ifd2-MakerNote", "xmp-data", "iptc-data", "photoshop-data", "png-comment-", "gif-comment",
    };
    gchar **fields = vips_image_get_fields(in);
    int found = 0;
    for (gchar **field = fields; *field && !found; field++) {
        for (size_t i = 0; i < G_N_ELEMENTS(prefixes) && !found; i++)
            found = g_str_has_prefix(*field, prefixes[i]);
        found = found || strstr(*field, "SerialNumber") || strstr(*field, "OwnerName");
    }
    g_strfreev(fields);
    return found;
}

VipsImage *shim_view_with_page_height(VipsImage *in, int page_height) {
    VipsImage *view = shim_private_view(in);
    if (view)
        vips_image_set_int(view, VIPS_META_PAGE_HEIGHT, page_height);
    return view;
}

int shim_page_count(VipsImage *in) {
    int pages = 1;
    if (vips_image_get_typeof(in, VIPS_META_N_PAGES) && vips_image_get_int(in, VIPS_META_N_PAGES, &pages))
        return 1;
    return pages;
}

int shim_has_icc(VipsImage *in) {
    return vips_image_get_typeof(in, VIPS_META_ICC_NAME) != 0;
}

int shim_icc_to_srgb(VipsImage *in, VipsImage **out) {
    // With "embedded", libvips uses the image's own profile; without one it falls back to
    // input_profile, here its built-in CMYK profile (only CMYK images come here without one).
    return vips_icc_transform(in, out, "srgb",
        "embedded", TRUE,
        "input_profile", "cmyk",
        "intent", VIPS_INTENT_RELATIVE,
        "depth", 8,
        NULL);
}

// Removes the metadata fields of `image` that `keep` does not accept.
static void shim_remove_metadata(VipsImage *image, int (*keep)(const char *name)) {
    gchar **fields = vips_image_get_fields(image);
    for (gchar **field = fields; *field; field++)
        if (shim_is_metadata(*field) && !(keep && keep(*field)))
            vips_image_remove(image, *field);
    g_strfreev(fields);
}

static int shim_copy_field(VipsImage *to, VipsImage *from, const char *name) {
    GValue value = G_VALUE_INIT;
    if (vips_image_get(from, name, &value))
        return -1;
    vips_image_set(to, name, &value);
    g_value_unset(&value);
    return 0;
}

VipsImage *shim_view_with_metadata_of(VipsImage *in, VipsImage *source) {
    VipsImage *view = shim_private_view(in);
    if (!view)
        return NULL;
    shim_remove_metadata(view, NULL);
    if (!source)
        return view;
    gchar **fields = vips_image_get_fields(source);
    int failed = 0;
    for (gchar **field = fields; *field && !failed; field++)
        if (shim_is_metadata(*field))
            failed = shim_copy_field(view, source, *field);
    g_strfreev(fields);
    if (failed) {
        g_object_unref(view);
        return NULL;
    }
    return view;
}

VipsImage *shim_view_for_saving(VipsImage *in, int keep_all) {
    VipsImage *view = shim_private_view(in);
    if (!view)
        return NULL;
    // Saved images are upright: a stale orientation would turn them a second time.
    vips_image_remove(view, VIPS_META_ORIENTATION);
    if (!keep_all) {
        shim_remove_metadata(view, shim_is_safe);
        // With no field left to write, an EXIF block would hold only what libvips adds itself.
        if (!shim_has_exif_field(view))
            vips_image_remove(view, VIPS_META_EXIF_NAME);
    }
    int colour = vips_image_get_interpretation(view) == VIPS_INTERPRETATION_sRGB && vips_image_get_bands(view) >= 3;
    if (colour && !shim_has_icc(view)) {
        VipsBlob *profile = NULL;
        if (vips_profile_load("srgb", &profile, NULL)) {
            g_object_unref(view);
            return NULL;
        }
        size_t length = 0;
        const void *data = vips_blob_get(profile, &length);
        vips_image_set_blob_copy(view, VIPS_META_ICC_NAME, data, length);
        vips_area_unref(VIPS_AREA(profile));
    }
    return view;
}
