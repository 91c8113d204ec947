#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H

// libjpeg reports a fatal error by calling error_exit, whose default prints and calls exit().
// The only safe way back from it is longjmp, and a longjmp must never cross a Swift frame. So
// every call into libjpeg that may fail is made from one of the C functions below: each sets its
// own setjmp point first, libjpeg longjmps back into that same C function, and the function
// returns -1 with the message. Swift only ever sees return codes and copied-out data.
//
// Warnings (corrupt or truncated data: "Premature end of JPEG file", "Corrupt JPEG data") are
// fatal too, as TurboJPEG's TJFLAG_STOPONWARNING makes them, so a damaged photo is reported
// rather than shown half grey. A progressive file may have at most `max_scans` scans (a file of
// thousands of tiny scans is a known way to burn CPU: TurboJPEG's TJFLAG_LIMITSCANS does the same).

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#define CJPEG_MESSAGE_CAPACITY 200

typedef struct cjpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int created;
    int started;
    int max_scans;
    int cmyk;
    char message[CJPEG_MESSAGE_CAPACITY];
    const unsigned char *exif;
    unsigned int exif_length;
} cjpeg_decoder;

static void cjpeg_decoder_error_exit(j_common_ptr cinfo) {
    cjpeg_decoder *decoder = (cjpeg_decoder *)cinfo->client_data;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    snprintf(decoder->message, sizeof decoder->message, "%s", buffer);
    longjmp(decoder->jump, 1);
}

static void cjpeg_decoder_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) {
        // A warning: the data is damaged. Stop here (see the top of this file).
        cjpeg_decoder_error_exit(cinfo);
    }
}

static void cjpeg_decoder_progress(j_common_ptr cinfo) {
    cjpeg_decoder *decoder = (cjpeg_decoder *)cinfo->client_data;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->progressive_mode && decoder->max_scans > 0
        && dinfo->input_scan_number > decoder->max_scans) {
        snprintf(decoder->message, sizeof decoder->message,
                 "the progressive JPEG has more than %d scans", decoder->max_scans);
        longjmp(decoder->jump, 1);
    }
}

/// A new decoder, or NULL when out of memory. Free it with cjpeg_decoder_destroy.
static inline cjpeg_decoder *cjpeg_decoder_create(int max_scans) {
    cjpeg_decoder *decoder = (cjpeg_decoder *)calloc(1, sizeof(cjpeg_decoder));
    if (decoder == NULL) {
        return NULL;
    }
    decoder->max_scans = max_scans;
    decoder->cinfo.err = jpeg_std_error(&decoder->err);
    decoder->err.error_exit = cjpeg_decoder_error_exit;
    decoder->err.emit_message = cjpeg_decoder_emit_message;
    decoder->cinfo.client_data = decoder;
    if (setjmp(decoder->jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = cjpeg_decoder_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

static inline void cjpeg_decoder_destroy(cjpeg_decoder *decoder) {
    if (decoder == NULL) {
        return;
    }
    if (decoder->created) {
        jpeg_destroy_decompress(&decoder->cinfo);
    }
    free(decoder);
}

static inline const char *cjpeg_decoder_message(const cjpeg_decoder *decoder) {
    return decoder->message;
}

/// Reads the header of `size` bytes at `data` (which must stay alive until the decoder is
/// destroyed) and keeps the Exif segment, if any. `max_memory` caps libjpeg's working memory.
/// Returns 0, or -1 with the message set.
static inline int cjpeg_read_header(cjpeg_decoder *decoder, const unsigned char *data,
                                    unsigned long size, long max_memory) {
    if (setjmp(decoder->jump)) {
        return -1;
    }
    decoder->cinfo.mem->max_memory_to_use = max_memory;
    jpeg_mem_src(&decoder->cinfo, data, size);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&decoder->cinfo, TRUE);
    for (jpeg_saved_marker_ptr marker = decoder->cinfo.marker_list; marker != NULL;
         marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6
            && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            decoder->exif = marker->data + 6;
            decoder->exif_length = marker->data_length - 6;
            break;
        }
    }
    return 0;
}

static inline unsigned int cjpeg_image_width(const cjpeg_decoder *decoder) {
    return decoder->cinfo.image_width;
}

static inline unsigned int cjpeg_image_height(const cjpeg_decoder *decoder) {
    return decoder->cinfo.image_height;
}

/// The TIFF structure of the Exif segment (after "Exif\0\0"), or NULL; valid until destroyed.
static inline const unsigned char *cjpeg_exif(const cjpeg_decoder *decoder, unsigned int *length) {
    *length = decoder->exif_length;
    return decoder->exif;
}

/// Starts decompressing at scale `scale_num`/8 (1...8) into RGBA and reports the output size.
/// For a progressive file this reads every scan. Returns 0, or -1 with the message set.
static inline int cjpeg_start(cjpeg_decoder *decoder, int scale_num, unsigned int *width,
                              unsigned int *height) {
    if (setjmp(decoder->jump)) {
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        // libjpeg has no CMYK to RGB conversion; cjpeg_read does it per line.
        cinfo->out_color_space = JCS_CMYK;
        decoder->cmyk = 1;
    } else {
        cinfo->out_color_space = JCS_EXT_RGBA;
    }
    jpeg_start_decompress(cinfo);
    decoder->started = 1;
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    return 0;
}

/// Reads every line into `pixels` (output_width * 4 bytes per line, output_height lines) and
/// finishes. Returns 0, or -1 with the message set.
static inline int cjpeg_read(cjpeg_decoder *decoder, unsigned char *pixels) {
    if (setjmp(decoder->jump)) {
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    size_t stride = (size_t)cinfo->output_width * 4;
    while (cinfo->output_scanline < cinfo->output_height) {
        unsigned char *line = pixels + (size_t)cinfo->output_scanline * stride;
        JSAMPROW row = line;
        jpeg_read_scanlines(cinfo, &row, 1);
        if (decoder->cmyk) {
            // Adobe writes inverted CMYK; in either case RGB = (1 - C)(1 - K) on the stored
            // values, in place (4 bytes in, 4 bytes out).
            int inverted = cinfo->saw_Adobe_marker;
            for (size_t x = 0; x < cinfo->output_width; x++) {
                unsigned char *p = line + x * 4;
                unsigned int c = p[0], m = p[1], y = p[2], k = p[3];
                if (!inverted) {
                    c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
                }
                p[0] = (unsigned char)(c * k / 255);
                p[1] = (unsigned char)(m * k / 255);
                p[2] = (unsigned char)(y * k / 255);
                p[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(cinfo);
    return 0;
}

// MARK: - Encoding (fixtures for tests and benchmarks, and smaller iTerm2 payloads for photos)

typedef struct cjpeg_encoder_error {
    struct jpeg_error_mgr err;
    jmp_buf jump;
    char message[CJPEG_MESSAGE_CAPACITY];
} cjpeg_encoder_error;

static void cjpeg_encoder_error_exit(j_common_ptr cinfo) {
    cjpeg_encoder_error *error = (cjpeg_encoder_error *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    snprintf(error->message, sizeof error->message, "%s", buffer);
    longjmp(error->jump, 1);
}

static void cjpeg_encoder_emit_message(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

/// Compresses `width`×`height` RGBA pixels at `quality` (1...100) into a new buffer, with an
/// APP1 segment of `app1_length` bytes first when `app1` is not NULL (an Exif block, "Exif\0\0"
/// included). The buffer is freed with cjpeg_free. Returns 0, or -1 with `message` set.
static inline int cjpeg_encode_rgba(const unsigned char *pixels, unsigned int width,
                                    unsigned int height, int quality, const unsigned char *app1,
                                    unsigned int app1_length, unsigned char **out,
                                    unsigned long *out_length, char *message,
                                    size_t message_capacity) {
    struct jpeg_compress_struct cinfo;
    cjpeg_encoder_error error;
    memset(&cinfo, 0, sizeof cinfo);
    memset(&error, 0, sizeof error);
    *out = NULL;
    *out_length = 0;
    cinfo.err = jpeg_std_error(&error.err);
    error.err.error_exit = cjpeg_encoder_error_exit;
    error.err.emit_message = cjpeg_encoder_emit_message;
    if (setjmp(error.jump)) {
        snprintf(message, message_capacity, "%s", error.message);
        jpeg_destroy_compress(&cinfo);
        free(*out);
        *out = NULL;
        *out_length = 0;
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, out, out_length);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 != NULL && app1_length > 0) {
        jpeg_write_marker(&cinfo, JPEG_APP0 + 1, app1, app1_length);
    }
    size_t stride = (size_t)width * 4;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}

static inline void cjpeg_free(unsigned char *buffer) { free(buffer); }

#endif
