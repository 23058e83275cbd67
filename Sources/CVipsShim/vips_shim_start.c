// Start-up, loaders and images made from files or memory.
#include "vips_shim.h"

#include <libintl.h>

// libvips 8.14 has no setting to skip its modules: vips_init loads every one in
// <libdir>/vips-modules-<major>.<minor>, libdir coming from VIPSHOME when that is set. Nothing
// can exist under /dev/null (a device, not a folder), so no module is found there.
static const char *const shim_home_without_modules = "/dev/null";

int shim_vips_init(const char *argv0, int load_modules) {
    // vips_init binds its text domain, "vips<major>.<minor>" (GETTEXT_PACKAGE in libvips'
    // meson.build), to <prefix>/share/locale, its prefix being VIPSHOME or else what
    // vips_guess_prefix answers (which also writes it to VIPSHOME).
    char *domain = g_strdup_printf("vips%d.%d", vips_version(0), vips_version(1));
    char *locale = NULL;
    int result;
    if (g_getenv("VIPSHOME"))
        result = VIPS_INIT(argv0);
    else {
        if (!load_modules) {
            locale = g_build_filename(vips_guess_prefix(argv0, "VIPSHOME"), "share", "locale", NULL);
            g_setenv("VIPSHOME", shim_home_without_modules, TRUE);
        }
        result = VIPS_INIT(argv0);
        g_unsetenv("VIPSHOME");
    }
    if (result == 0 && locale)
        bindtextdomain(domain, locale);
    // Beside libvips' own "prefix = /dev/null" under VIPS_INFO: where its messages really come from.
    if (result == 0)
        g_log("VIPS", G_LOG_LEVEL_INFO, "messages of %s from %s", domain, bindtextdomain(domain, NULL));
    g_free(locale);
    g_free(domain);
    return result;
}

void shim_vips_configure(void) {
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
}

int shim_operation_exists(const char *nickname) {
    return vips_type_find("VipsOperation", nickname) != 0;
}

int shim_operation_is_blocked(const char *nickname) {
    GType type = vips_type_find("VipsOperation", nickname);
    if (!type)
        return 0;
    gpointer klass = g_type_class_ref(type);
    int blocked = (VIPS_OPERATION_CLASS(klass)->flags & VIPS_OPERATION_BLOCKED) != 0;
    g_type_class_unref(klass);
    return blocked;
}

const char *shim_find_loader(const char *filename) {
    // vips_foreign_find_load answers with a type name ("VipsForeignLoadPngFile").
    const char *type_name = vips_foreign_find_load(filename);
    if (!type_name)
        return NULL;
    return vips_nickname_find(g_type_from_name(type_name));
}

// Builds a loader with the options every open uses, plus `source_name` set to `source`.
static int shim_open_with(const char *loader, const char *source_name, const GValue *source, int sequential,
                          int all_pages, VipsImage **out) {
    // Built directly rather than through vips_cache_operation_buildp: a cached load would hand
    // back the old pixels of a file that has since been replaced at the same path.
    VipsOperation *operation = vips_operation_new(loader);
    if (!operation)
        return -1;
    VipsAccess access = sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
    g_object_set_property(G_OBJECT(operation), source_name, source);
    if (all_pages && vips_object_set(VIPS_OBJECT(operation), "n", -1, NULL)) {
        g_object_unref(operation);
        return -1;
    }
    if (vips_object_set(VIPS_OBJECT(operation),
            "access", access,
            "fail_on", VIPS_FAIL_ON_WARNING,
            NULL) ||
        vips_object_build(VIPS_OBJECT(operation))) {
        vips_object_unref_outputs(VIPS_OBJECT(operation));
        g_object_unref(operation);
        return -1;
    }
    g_object_get(operation, "out", out, NULL);
    vips_object_unref_outputs(VIPS_OBJECT(operation));
    g_object_unref(operation);
    return 0;
}

int shim_open(const char *loader, const char *filename, int sequential, int all_pages, VipsImage **out) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_STRING);
    g_value_set_string(&value, filename);
    int result = shim_open_with(loader, "filename", &value, sequential, all_pages, out);
    g_value_unset(&value);
    return result;
}

int shim_open_buffer(const char *loader, const void *data, size_t length, int sequential, int copy, VipsImage **out) {
    // The loader keeps a reference to the blob for as long as it reads: a copy of the bytes, or
    // the caller's own bytes, which the caller keeps valid.
    VipsBlob *blob = copy ? vips_blob_copy(data, length) : vips_blob_new(NULL, data, length);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, VIPS_TYPE_BLOB);
    g_value_set_boxed(&value, blob);
    int result = shim_open_with(loader, "buffer", &value, sequential, 0, out);
    g_value_unset(&value);
    vips_area_unref(VIPS_AREA(blob));
    return result;
}

const char *shim_loader_name(VipsImage *image) {
    const char *name = NULL;
    if (vips_image_get_typeof(image, "vips-loader") &&
        vips_image_get_string(image, "vips-loader", &name) == 0)
        return name;
    return NULL;
}

int shim_thumbnail(const char *filename, int size, int to_srgb, VipsImage **out) {
    return vips_thumbnail(filename, out, size,
        "height", size,
        "fail_on", VIPS_FAIL_ON_WARNING,
        "export_profile", to_srgb ? "srgb" : NULL,
        "intent", VIPS_INTENT_RELATIVE,
        NULL);
}

int shim_thumbnail_buffer(const void *data, size_t length, int size, int to_srgb, VipsImage **out) {
    // libvips hands "fail_on" to the loader only when thumbnailing a file: from a buffer, only the
    // option string reaches it, and without it a truncated JPEG would decode as grey.
    return vips_thumbnail_buffer((void *) data, length, out, size,
        "option_string", "fail_on=warning",
        "height", size,
        "fail_on", VIPS_FAIL_ON_WARNING,
        "export_profile", to_srgb ? "srgb" : NULL,
        "intent", VIPS_INTENT_RELATIVE,
        NULL);
}

int shim_from_memory(const void *data, size_t size, int width, int height, int bands, VipsImage **out) {
    VipsImage *raw = vips_image_new_from_memory_copy(data, size, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!raw)
        return -1;
    VipsInterpretation interpretation = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    int result = vips_copy(raw, out, "interpretation", interpretation, NULL);
    g_object_unref(raw);
    return result;
}
