#include "cimageio.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
} error_manager;

static void on_error(j_common_ptr info) {
    error_manager *manager = (error_manager *)info->err;
    (*info->err->format_message)(info, manager->message);
    longjmp(manager->jump, 1);
}

static void on_warning(j_common_ptr info, int level) {
    (void)info; (void)level;  // corrupt-data warnings: libjpeg recovers, and so do we
}

int cimageio_decode_jpeg(const void *data, size_t size, unsigned long long max_pixels, cimageio_image *out) {
    return cimageio_decode_jpeg_scaled(data, size, max_pixels, 1, out);
}

int cimageio_decode_jpeg_scaled(const void *data, size_t size, unsigned long long max_pixels, int scale_denom,
                                cimageio_image *out) {
    memset(out, 0, sizeof *out);
    struct jpeg_decompress_struct info;
    error_manager errors;
    char message[JMSG_LENGTH_MAX] = {0};
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = on_error;
    errors.base.emit_message = on_warning;
    errors.message = message;
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile row = NULL;
    if (setjmp(errors.jump)) {
        snprintf(out->error, sizeof out->error, "%s", message);
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, (const unsigned char *)data, (unsigned long)size);
    jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);  // EXIF
    jpeg_save_markers(&info, JPEG_APP0 + 2, 0xFFFF);  // ICC profile
    jpeg_read_header(&info, TRUE);
    out->width = (int)info.image_width;
    out->height = (int)info.image_height;
    out->declared_pixels = (unsigned long long)info.image_width * info.image_height;
    out->stored_width = (int)info.image_width;
    out->stored_height = (int)info.image_height;
    if (out->declared_pixels > max_pixels) {
        out->too_large = 1;
        snprintf(message, sizeof message, "too large");
        longjmp(errors.jump, 1);
    }
    out->bit_depth = info.data_precision;
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    out->color_model = cmyk ? CIMAGEIO_CMYK : info.jpeg_color_space == JCS_GRAYSCALE ? CIMAGEIO_GRAY : CIMAGEIO_RGB;
    for (jpeg_saved_marker_ptr marker = info.marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && !out->exif && marker->data_length > 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            out->exif = malloc(marker->data_length - 6);
            if (out->exif) {
                memcpy(out->exif, marker->data + 6, marker->data_length - 6);
                out->exif_length = marker->data_length - 6;
            }
        }
    }
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (jpeg_read_icc_profile(&info, &icc, &icc_length) && icc) {
        out->icc = icc;  // malloc'd by libjpeg: ours to free
        out->icc_length = icc_length;
    }
    if (info.saw_JFIF_marker && info.X_density > 0 && info.Y_density > 0 && (info.density_unit == 1 || info.density_unit == 2)) {
        double scale = info.density_unit == 1 ? 1 : 2.54;  // dots per inch or per centimetre
        out->dpi_x = info.X_density * scale;
        out->dpi_y = info.Y_density * scale;
    }
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    // Reduced sizes come from the DCT itself (libjpeg-turbo scales each 8×8 block): far faster than decoding
    // everything and averaging.
    if (scale_denom == 2 || scale_denom == 4 || scale_denom == 8) {
        info.scale_num = 1;
        info.scale_denom = (unsigned int)scale_denom;
    }
    jpeg_start_decompress(&info);
    size_t width = info.output_width, height = info.output_height;
    pixels = malloc(width * height * 4);
    row = malloc(width * 4);
    if (!pixels || !row) {
        snprintf(message, sizeof message, "out of memory for %zux%zu pixels", width, height);
        longjmp(errors.jump, 1);
    }
    // Photoshop writes CMYK JPEGs inverted (an Adobe marker says so): 255 means no ink.
    int inverted = info.saw_Adobe_marker;
    while (info.output_scanline < info.output_height) {
        unsigned char *target = pixels + (size_t)info.output_scanline * width * 4;
        JSAMPROW rows[1] = { cmyk ? row : target };
        jpeg_read_scanlines(&info, rows, 1);
        if (cmyk) {
            for (size_t x = 0; x < width; x++) {
                unsigned c = row[4 * x], m = row[4 * x + 1], y = row[4 * x + 2], k = row[4 * x + 3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                target[4 * x] = (unsigned char)((c * k + 127) / 255);
                target[4 * x + 1] = (unsigned char)((m * k + 127) / 255);
                target[4 * x + 2] = (unsigned char)((y * k + 127) / 255);
                target[4 * x + 3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    out->width = (int)width;
    out->height = (int)height;
    out->is16bit = 0;
    out->pixels = pixels;
    return 0;
}

int cimageio_encode_jpeg(const uint8_t *rgba, int width, int height, int quality, cimageio_buffer *out, char error[256]) {
    struct jpeg_compress_struct info;
    error_manager errors;
    char message[JMSG_LENGTH_MAX] = {0};
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = on_error;
    errors.message = message;
    unsigned char *volatile buffer = NULL;  // volatile: still right after a longjmp
    unsigned long size = 0;
    out->data = NULL;
    out->size = 0;
    if (setjmp(errors.jump)) {
        snprintf(error, 256, "%s", message);
        jpeg_destroy_compress(&info);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW rows[1] = { (JSAMPROW)(rgba + (size_t)info.next_scanline * width * 4) };
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    out->data = buffer;
    out->size = size;
    return 0;
}
