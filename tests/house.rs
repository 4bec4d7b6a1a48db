//! Rules of the house checked on the source text: every non-test function under `src/` is at
//! most 60 lines long, a Leptos `#[component]` at most 80. A function that is one literal table
//! of data may be longer when a `// table: <reason>` line comment sits right above it (among its
//! doc comments and attributes). Test code is exempt: `#[cfg(test)]` modules, `#[test]`
//! functions and files named `tests.rs` or `*_tests.rs`.
//!
//! The scanner blanks comments, string literals (raw ones included) and char literals before it
//! matches braces, so a `{` inside a string or a `'}'` never shifts a function's end.

use std::path::{Path, PathBuf};

/// The longest function allowed, in lines from its `fn` line to its closing brace.
const FUNCTION_LIMIT: usize = 60;
/// The longest Leptos component allowed, counted the same way.
const COMPONENT_LIMIT: usize = 80;
/// The line comment that allows a table-of-data function to be longer.
const TABLE_MARKER: &str = "// table:";

/// One function found in a source file.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    /// 1-based line of the `fn` keyword.
    line: usize,
    /// Lines from the `fn` line to the closing brace, both included.
    lines: usize,
    component: bool,
    table: bool,
}

impl Function {
    fn limit(&self) -> usize {
        if self.component {
            COMPONENT_LIMIT
        } else {
            FUNCTION_LIMIT
        }
    }

    fn too_long(&self) -> bool {
        !self.table && self.lines > self.limit()
    }
}

/// `source` with every comment, string literal and char literal replaced by spaces (newlines
/// kept), so byte offsets and line numbers are those of `source`.
fn blank_literals(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        let end = literal_end(bytes, i);
        if end > i {
            for byte in &mut out[i..end] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The end of the comment or literal starting at `i`, or `i` when none starts there.
fn literal_end(bytes: &[u8], i: usize) -> usize {
    let rest = &bytes[i..];
    let after_ident = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    if rest.starts_with(b"//") {
        return find(bytes, i, b"\n").unwrap_or(bytes.len());
    }
    if rest.starts_with(b"/*") {
        return block_comment_end(bytes, i);
    }
    if !after_ident {
        let raw_at = match rest {
            [b'r', b'#' | b'"', ..] => Some(i + 1),
            [b'b', b'r', b'#' | b'"', ..] => Some(i + 2),
            _ => None,
        };
        if let Some(hashes_at) = raw_at {
            if let Some(end) = raw_string_end(bytes, hashes_at) {
                return end;
            }
        }
    }
    match rest[0] {
        b'"' => quoted_end(bytes, i + 1, b'"'),
        b'\'' => char_end(bytes, i).unwrap_or(i),
        _ => i,
    }
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes[from..]
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|at| from + at)
}

/// The end of a (possibly nested) block comment opening at `i`.
fn block_comment_end(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// The end of a raw string whose `#`s (or opening quote) start at `i`, if one starts there.
fn raw_string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let hashes = bytes[i..].iter().take_while(|&&b| b == b'#').count();
    if bytes.get(i + hashes) != Some(&b'"') {
        return None;
    }
    let mut closing = vec![b'"'];
    closing.extend(std::iter::repeat_n(b'#', hashes));
    let body = i + hashes + 1;
    Some(find(bytes, body, &closing).map_or(bytes.len(), |at| at + closing.len()))
}

/// The end of a quoted literal whose body starts at `i`, honouring backslash escapes.
fn quoted_end(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of a char literal opening at `i` (`'x'`, `'\n'`, `'\u{1F600}'`, a multi-byte char);
/// `None` for a lifetime or a label.
fn char_end(bytes: &[u8], i: usize) -> Option<usize> {
    let next = *bytes.get(i + 1)?;
    if next == b'\\' {
        let end = quoted_end(bytes, i + 1, b'\'');
        return (end - i <= 12).then_some(end);
    }
    let width = match next {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    (next != b'\'' && bytes.get(i + 1 + width) == Some(&b'\'')).then_some(i + 2 + width)
}

/// The offset of the brace closing the one at `open` in blanked text.
fn closing_brace(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (at, &byte) in code.iter().enumerate().skip(open) {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// The name declared by a line that starts a function (after its qualifiers), if it does.
fn function_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = after.trim_start();
        if let Some(after) = rest.strip_prefix('(') {
            rest = &after[after.find(')')? + 1..];
        }
    }
    for qualifier in ["const", "async", "unsafe", "extern"] {
        if let Some(after) = rest.trim_start().strip_prefix(qualifier) {
            if after.starts_with(char::is_whitespace) {
                rest = after;
            }
        }
    }
    // An `extern "C"` ABI string is blanked: skip the gap it leaves.
    let name = rest.trim_start().strip_prefix("fn ")?.trim_start();
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

/// The attribute and comment lines right above line `index` (0-based), nearest first.
fn preamble<'a>(lines: &[&'a str], index: usize) -> Vec<&'a str> {
    lines[..index]
        .iter()
        .rev()
        .map(|line| line.trim())
        .take_while(|line| line.starts_with("#[") || line.starts_with("//"))
        .collect()
}

/// The byte ranges of `#[cfg(test)]` modules with a body, in blanked text.
fn test_modules(code: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]") {
        let attribute = from + at;
        from = attribute + 1;
        let after = &code[attribute + "#[cfg(test)]".len()..];
        let Some(body) = after.find(['{', ';']) else {
            continue;
        };
        let header = after[..body].trim();
        let is_module = header.starts_with("mod ") || header.starts_with("pub mod ");
        if is_module && after.as_bytes()[body] == b'{' {
            let open = attribute + "#[cfg(test)]".len() + body;
            ranges.push((attribute, closing_brace(code.as_bytes(), open)));
        }
    }
    ranges
}

/// Every non-test function with a body in one source file.
fn functions(source: &str) -> Vec<Function> {
    let code = blank_literals(source);
    let bytes = code.as_bytes();
    let original: Vec<&str> = source.lines().collect();
    let tests = test_modules(&code);
    let mut found = Vec::new();
    let mut offset = 0;
    for (index, line) in code.split('\n').enumerate() {
        let start = offset;
        offset += line.len() + 1;
        let Some(name) = function_name(line) else {
            continue;
        };
        if tests.iter().any(|&(a, b)| (a..=b).contains(&start)) {
            continue;
        }
        let Some(body) = code[start..].find(['{', ';']).map(|at| start + at) else {
            continue;
        };
        if bytes[body] == b';' {
            continue;
        }
        let above = preamble(&original, index);
        if above.iter().any(|line| line.starts_with("#[test]")) {
            continue;
        }
        let end = closing_brace(bytes, body);
        found.push(Function {
            name: name.to_string(),
            line: index + 1,
            lines: code[start..=end].matches('\n').count() + 1,
            component: above.iter().any(|line| line.starts_with("#[component")),
            table: above.iter().any(|line| line.starts_with(TABLE_MARKER)),
        });
    }
    found
}

fn is_test_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name == "tests.rs" || name.ends_with("_tests.rs"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") && !is_test_file(&path) {
            out.push(path);
        }
    }
}

/// `path:line name (N lines)` for every function of `src/` over its limit.
fn long_functions() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let mut long = Vec::new();
    for path in files {
        let source = std::fs::read_to_string(&path).expect("readable file");
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for function in functions(&source).into_iter().filter(Function::too_long) {
            long.push(format!(
                "{shown}:{} {} ({} lines)",
                function.line, function.name, function.lines
            ));
        }
    }
    long
}

#[test]
fn functions_are_short() {
    let long = long_functions();
    assert!(
        long.is_empty(),
        "functions over {FUNCTION_LIMIT} lines (components over {COMPONENT_LIMIT}); split them, \
         or mark a table of data with `{TABLE_MARKER} <reason>`:\n{}",
        long.join("\n")
    );
}

/// A fake source: a 61-line function whose strings and chars hold braces, a 60-line one, a
/// table, a component, a test module and a `#[test]` function.
fn fake_source() -> String {
    let body = |n: usize| "    let _ = 1;\n".repeat(n);
    format!(
        "//! doc {{\n\
         pub(crate) fn long() {{\n    let s = \"}}{{\\\"}}\";\n    let c = '}}';\n    \
         let r = r#\"}}\"#;\n    let l: &'static str = \"\";\n    /* }} /* {{ */ */\n{}}}\n\
         fn fits() {{\n{}}}\n\
         /// Data.\n// table: the paper's numbers\nfn table() {{\n{}}}\n\
         #[component]\npub fn View() -> impl IntoView {{\n{}}}\n\
         #[test]\nfn checks() {{\n{}}}\n\
         #[cfg(test)]\nmod tests {{\n    fn helper() {{\n{}    }}\n}}\n\
         fn after() {{ let c = '{{'; }}\n",
        body(54),
        body(58),
        body(70),
        body(78),
        body(70),
        body(70),
    )
}

#[test]
fn scanner_measures_functions_past_literals_and_skips_tests() {
    let found = functions(&fake_source());
    let summary: Vec<(&str, usize, usize, bool)> = found
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines, f.too_long()))
        .collect();
    assert_eq!(
        summary,
        [
            ("long", 2, 61, true),
            ("fits", 63, 60, false),
            ("table", 125, 72, false),
            ("View", 198, 80, false),
            ("after", 426, 1, false),
        ]
    );
    assert!(found[3].component && found[2].table);
}

#[test]
fn blanking_keeps_lines_and_drops_literal_braces() {
    let source = "let a = \"{\\n\";\nlet b = b'}'; // }\nlet c = br##\"}\"#\"##; 'x: loop {}";
    let blank = blank_literals(source);
    assert_eq!(blank.len(), source.len());
    assert_eq!(blank.matches('\n').count(), 2);
    assert_eq!(blank.matches('{').count(), 1);
    assert_eq!(blank.matches('}').count(), 1);
}
