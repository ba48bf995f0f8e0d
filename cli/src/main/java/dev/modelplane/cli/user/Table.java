package dev.modelplane.cli.user;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** A kubectl-like table: upper-case headers, columns padded to their widest cell, three spaces apart. */
final class Table {
  private final List<String[]> rows = new ArrayList<>();

  Table(String... headers) {
    rows.add(headers);
  }

  Table row(String... cells) {
    rows.add(cells);
    return this;
  }

  boolean isEmpty() {
    return rows.size() == 1;
  }

  void print(PrintWriter out) {
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], r[i] == null ? 0 : r[i].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        String cell = r[i] == null ? "" : r[i];
        line.append(cell);
        if (i < columns - 1) {
          line.append(" ".repeat(width[i] - cell.length() + 3));
        }
      }
      out.println(line.toString().stripTrailing());
    }
    out.flush();
  }

  /** kubectl's age: 42s, 5m, 3h, 2d. */
  static String age(String timestamp, Instant now) {
    if (timestamp == null || timestamp.isEmpty()) {
      return "-";
    }
    try {
      Duration d = Duration.between(Instant.parse(timestamp), now);
      long s = Math.max(0, d.toSeconds());
      return s < 120 ? s + "s" : s < 7200 ? s / 60 + "m" : s < 172_800 ? s / 3600 + "h" : s / 86_400 + "d";
    } catch (DateTimeParseException e) {
      return "-";
    }
  }
}
