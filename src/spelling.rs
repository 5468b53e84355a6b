//! Did-you-mean: which known word a misspelt one was taken for (unknown fields, annotation keys,
//! Service and port names).

/// How many edits a misspelling may be away from the word it is taken for: 1 for short words,
/// 2 up to 11 characters, 3 beyond.
pub(crate) fn suggestion_threshold(word: &str) -> usize {
    match word.chars().count() {
        0..=4 => 1,
        5..=11 => 2,
        _ => 3,
    }
}

/// The closest of `candidates` to `word` within [`suggestion_threshold`] (first on ties), never
/// `word` itself.
pub(crate) fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = suggestion_threshold(word);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Optimal-string-alignment distance (Levenshtein plus transposition of two adjacent characters):
/// `ngnix` is one edit from `nginx`. Counts `char`s; costs O(|a|·|b|) time and O(|b|) memory.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    use alloc::vec::Vec;
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: i-2, i-1, i.
    let mut before: Vec<usize> = (0..=b.len()).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = alloc::vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1).min(current[j - 1] + 1).min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
        }
        core::mem::swap(&mut before, &mut previous);
        core::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("nginx", "ngnix"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("rewrite-target", "rewrite-targte"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }
}
