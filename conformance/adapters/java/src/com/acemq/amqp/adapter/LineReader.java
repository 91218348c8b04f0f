package com.acemq.amqp.adapter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Request lines: the bytes up to each LF, without it; a last line without LF
 * still counts. Not {@code BufferedReader.readLine}: it also ends a line at
 * CR, which the protocol calls JSON whitespace, and would answer one request
 * twice. A line longer than the protocol's 1 MiB is consumed without being
 * kept; only its length is known.
 */
final class LineReader {
    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int end;

    private byte[] line = new byte[4096];
    private int length;
    private boolean tooLong;

    LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** Reads the next line; false at the end of input. */
    boolean next() throws IOException {
        length = 0;
        tooLong = false;
        boolean any = false;
        while (true) {
            if (position == end) {
                int read = in.read(buffer, 0, buffer.length);
                if (read < 0) {
                    return any; // a last line without LF is still a request
                }
                position = 0;
                end = read;
                continue;
            }
            any = true;
            int start = position;
            int newline = -1;
            for (int i = start; i < end; i++) {
                if (buffer[i] == '\n') {
                    newline = i;
                    break;
                }
            }
            int stop = newline < 0 ? end : newline;
            keep(start, stop - start);
            position = newline < 0 ? end : newline + 1;
            if (newline >= 0) {
                return true;
            }
        }
    }

    private void keep(int from, int count) {
        long total = (long) length + count;
        if (tooLong || total > maxLineBytes) {
            // Counted, not stored: a 2 GiB line costs no memory.
            tooLong = true;
            length = (int) Math.min(total, Integer.MAX_VALUE);
            return;
        }
        if (total > line.length) {
            line = Arrays.copyOf(line, (int) Math.min(Math.max(total, 2L * line.length), maxLineBytes));
        }
        System.arraycopy(buffer, from, line, length, count);
        length = (int) total;
    }

    /** Whether the line was longer than the limit (then {@link #bytes()} holds nothing useful). */
    boolean tooLong() {
        return tooLong;
    }

    /** The line's bytes, valid up to {@link #length()} until the next call. */
    byte[] bytes() {
        return line;
    }

    /** The line's length in bytes (for a line too long, its length as counted, at most 2^31 - 1). */
    int length() {
        return length;
    }
}
