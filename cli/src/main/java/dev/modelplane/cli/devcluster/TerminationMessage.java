package dev.modelplane.cli.devcluster;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A terminated container's message, read as the kubelet reads it: the termination message file (at most
 * {@value #MAX_BYTES} bytes); with policy {@code FallbackToLogsOnError}, a container that failed with an empty file
 * gets the end of its log instead (the last {@value #LOG_LINES} lines, at most {@value #LOG_BYTES} bytes).
 */
final class TerminationMessage {
  /** The most of a termination message file the kubelet reads. */
  static final int MAX_BYTES = 4096;
  /** The most log lines a fallback message holds. */
  static final int LOG_LINES = 80;
  /** The most log bytes a fallback message holds. */
  static final int LOG_BYTES = 2048;
  /** The policy that falls back to the log. */
  static final String FALLBACK_TO_LOGS = "FallbackToLogsOnError";

  private TerminationMessage() {
  }

  /** The message of a container that exited with {@code exitCode}. */
  static String read(Path file, String policy, int exitCode, Path log) {
    String message = head(file, MAX_BYTES);
    if (message.isEmpty() && exitCode != 0 && FALLBACK_TO_LOGS.equals(policy)) {
      return logTail(log);
    }
    return message;
  }

  /** The last {@value #LOG_LINES} lines of {@code log}, at most {@value #LOG_BYTES} bytes (whole characters). */
  static String logTail(Path log) {
    byte[] tail = tailBytes(log, LOG_BYTES);
    String text = new String(tail, StandardCharsets.UTF_8);
    if (!text.isEmpty() && text.charAt(0) == '\uFFFD') {
      text = text.substring(1);
    }
    List<String> lines = Arrays.asList(text.split("\n", -1));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines = lines.subList(0, lines.size() - 1);
    }
    return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size()));
  }

  private static String head(Path file, int max) {
    if (file == null || !Files.isRegularFile(file)) {
      return "";
    }
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      byte[] buf = new byte[(int) Math.min(max, in.length())];
      in.readFully(buf);
      String text = new String(buf, StandardCharsets.UTF_8);
      return text.endsWith("\uFFFD") && in.length() > max ? text.substring(0, text.length() - 1) : text;
    } catch (IOException e) {
      return "";
    }
  }

  private static byte[] tailBytes(Path file, int max) {
    if (file == null || !Files.isRegularFile(file)) {
      return new byte[0];
    }
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, in.length() - max);
      byte[] buf = new byte[(int) (in.length() - start)];
      in.seek(start);
      in.readFully(buf);
      return buf;
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
