//! Tables: every cell rendered once at the widest width a cell can get, columns side by side
//! when they fit, else each row as "header: value" lines.

use super::*;
use crate::content::tree::{Align, Table};

/// A cell laid out once, at the widest width a cell can get.
struct Cell {
    lines: Vec<Line<'static>>,
    width: usize,
    align: Align,
}

/// The rows' cells, and whether each row is a header row.
type Grid = Vec<(Vec<Cell>, bool)>;

impl Renderer<'_> {
    pub(super) fn table(&mut self, table: &Table, flow: &mut Flow, inh: Inherit, depth: usize) {
        for &c in &table.captions {
            self.block_children(c, flow, inh, depth + 1);
        }
        let cell_w = inner_width(flow.width, 2).unwrap_or(flow.width);
        let grid = self.table_cells(table, cell_w, inh, depth);
        let ncols = grid.iter().map(|r| r.0.len()).max().unwrap_or(0);
        if ncols == 0 {
            return;
        }
        let mut col_w = vec![0; ncols];
        for (cells, _) in &grid {
            for (i, c) in cells.iter().enumerate() {
                col_w[i] = col_w[i].max(c.width);
            }
        }
        let total = col_w.iter().sum::<usize>() + 3 * (ncols - 1);
        let out = if total <= flow.width {
            self.table_columns(&grid, &col_w)
        } else {
            self.table_entries(grid, flow.width, cell_w)
        };
        flow.block(out, Kind::Block);
    }

    /// Every cell rendered exactly once, at the widest width a cell can get.
    fn table_cells(&mut self, table: &Table, cell_w: usize, inh: Inherit, depth: usize) -> Grid {
        let t = self.theme;
        let mut grid: Grid = Vec::new();
        for row in &table.rows {
            let mut cells = Vec::new();
            for &td in &row.cells {
                let (th, align) = match self.tree.element(td).map(|e| e.tag) {
                    Some(Tag::Cell { th, align }) => (th, align),
                    _ => (false, Align::Left),
                };
                let cinh = if row.header || th { inh.patch(t.table_header) } else { inh };
                let mut sub = Flow::new(cell_w);
                self.children(td, &mut sub, cinh, depth + 2);
                let lines = sub.finish();
                let width = lines.iter().map(line_width).max().unwrap_or(0);
                cells.push(Cell { lines, width, align });
            }
            grid.push((cells, row.header));
        }
        grid
    }

    /// The table as it fits: columns side by side, a rule under the header rows.
    fn table_columns(&self, grid: &Grid, col_w: &[usize]) -> Vec<Line<'static>> {
        let t = self.theme;
        let mut out: Vec<Line<'static>> = Vec::new();
        for (ri, (cells, header)) in grid.iter().enumerate() {
            let height = cells.iter().map(|c| c.lines.len()).max().unwrap_or(0).max(1);
            for k in 0..height {
                let mut spans: Vec<Span<'static>> = Vec::new();
                for (ci, &cw) in col_w.iter().enumerate() {
                    if ci > 0 {
                        spans.push(Span::styled(" │ ", t.table_border));
                    }
                    let cell = cells.get(ci);
                    let line = cell.and_then(|c| c.lines.get(k));
                    let w = line.map(line_width).unwrap_or(0);
                    let pad = cw - w;
                    let (left, right) = match cell.map_or(Align::Left, |c| c.align) {
                        Align::Left => (0, pad),
                        Align::Right => (pad, 0),
                        Align::Center => (pad / 2, pad - pad / 2),
                    };
                    push_span(&mut spans, &" ".repeat(left), t.text);
                    if let Some(line) = line {
                        spans.extend(line.spans.iter().cloned());
                    }
                    push_span(&mut spans, &" ".repeat(right), t.text);
                }
                trim_line_end(&mut spans);
                out.push(Line::from(spans));
            }
            let next_is_header = grid.get(ri + 1).is_some_and(|r| r.1);
            if *header && !next_is_header {
                let sep: Vec<String> = col_w.iter().map(|&w| "─".repeat(w)).collect();
                out.push(Line::from(Span::styled(sep.join("─┼─"), t.table_border)));
            }
        }
        out
    }

    /// Too wide: one "Header: value" entry per cell, rows separated by blank lines.
    fn table_entries(&self, grid: Grid, width: usize, cell_w: usize) -> Vec<Line<'static>> {
        let t = self.theme;
        let labels: Vec<Vec<Span<'static>>> = grid
            .iter()
            .find(|r| r.1)
            .map(|(cells, _)| {
                cells
                    .iter()
                    .map(|c| {
                        let mut spans = Vec::new();
                        for (i, l) in c.lines.iter().enumerate() {
                            if i > 0 {
                                spans.push(Span::styled(" ", t.table_header));
                            }
                            spans.extend(l.spans.iter().cloned());
                        }
                        spans
                    })
                    .collect()
            })
            .unwrap_or_default();
        let has_body = grid.iter().any(|r| !r.1);
        let mut out: Vec<Line<'static>> = Vec::new();
        let mut first_row = true;
        for (cells, header) in grid {
            if header && has_body {
                continue;
            }
            if !first_row {
                out.push(Line::default());
            }
            first_row = false;
            for (ci, cell) in cells.into_iter().enumerate() {
                if cell.width == 0 {
                    continue;
                }
                let label = labels
                    .get(ci)
                    .filter(|_| !header)
                    .filter(|l| l.iter().any(|s| !s.content.trim().is_empty()));
                let Some(label) = label else {
                    out.extend(cell.lines);
                    continue;
                };
                let mut label_line = label.clone();
                label_line.push(Span::styled(":", t.table_header));
                let lw = label_line.iter().map(|s| display_width(&s.content)).sum::<usize>();
                if cell.lines.len() == 1 && lw + 1 + cell.width <= width {
                    let mut spans = label_line;
                    spans.push(Span::styled(" ", t.text));
                    spans.extend(cell.lines.into_iter().flat_map(|l| l.spans));
                    out.push(Line::from(spans));
                } else {
                    out.extend(split_line_to_width(Line::from(label_line), width));
                    if cell_w < width {
                        out.extend(prefix_lines(cell.lines, "  ", "  ", t.text));
                    } else {
                        out.extend(cell.lines);
                    }
                }
            }
        }
        out
    }
}
