#!/usr/bin/env python3
# Counts the lines of non-test code outside the systems' folders and the registry that name a
# system (comments stripped), with and without string literals. Usage: python3 scripts/system-names.py (from the repository root)
import os,re,sys
pat=re.compile(r'System::(Ks|Kolmogorov|Burgers)\b|\bKs\b|Kolmogorov|Burgers')
home=('crates/core/src/ks/','crates/core/src/kolmogorov/','crates/core/src/burgers/','crates/core/src/system/')
def strip_strings(line): return re.sub(r'"(\\.|[^"\\])*"','""',line)
tot=0; ident=0; files={}
for root,_,fs in os.walk('src'):
  for f in fs:
    p=os.path.join(root,f)
    if not f.endswith('.rs') or p.startswith(home) or f=='tests.rs' or f.endswith('_tests.rs'): continue
    for line in open(p):
      if re.match(r'\s*#\[cfg\(test\)\]',line): break
      code=re.sub(r'//.*','',line)
      if pat.search(code): tot+=1
      if pat.search(strip_strings(code)): ident+=1; files[p]=files.get(p,0)+1
print("lines naming a system outside its folder (code, comments stripped):",tot,"; outside string literals:",ident)
for p,n in sorted(files.items(), key=lambda x:-x[1]): print(n,p)
