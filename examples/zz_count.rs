fn main() {
    for f in std::env::args().skip(1) {
        let l = fixtures::model::read_league(std::path::Path::new(&f)).unwrap();
        let n = fixtures::formulate::count_slots(&l, &Default::default(), usize::MAX);
        println!("{f}: {} fixtures, {n} slots", l.fixtures().len());
    }
}
