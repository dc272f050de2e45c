#!/usr/bin/env python3
"""Lists the longest function bodies in the libraries and the CLI (not tests/, bench/ or
sample_site/), longest first: lines, file, first line. A brace matcher over the source with
comments and strings blanked; lambdas and control blocks count as part of their function.

Usage: scripts/long_functions.py [N]   (N rows, default 10)
"""
import re, subprocess, sys
files=subprocess.run("git ls-files '*.cpp' '*.h' | grep -v '^tests/\\|^bench/\\|^sample_site/'",shell=True,capture_output=True,text=True).stdout.split()
def depth_fn(stack): return not any(fn for _,fn in stack)
res=[]
for f in files:
    src=open(f).read()
    s=re.sub(r'//[^\n]*','',src)
    s=re.sub(r'/\*.*?\*/',lambda m:'\n'*m.group(0).count('\n'),s,flags=re.S)
    s=re.sub(r'R"(\w*)\((.*?)\)\1"',lambda m:'""'+'\n'*m.group(0).count('\n'),s,flags=re.S)
    s=re.sub(r'"(?:[^"\\\n]|\\.)*"','""',s)
    s=re.sub(r"'(?:[^'\\\n]|\\.)*'","''",s)
    stack=[]
    for i,c in enumerate(s):
        if c=='{':
            head=s[max(0,i-300):i]
            isfn = re.search(r'\)\s*(const|override|noexcept|final|\s)*\s*(->\s*[\w:<>,\s]+)?$',head) is not None or re.search(r'\)\s*:\s*[\w_]+\(.*\)\s*$',head,re.S) is not None
            kw = re.search(r'\b(if|for|while|switch|catch)\s*\((?:[^{};]|;)*\)\s*$',head)
            lam = re.search(r'\]\s*(\([^{}]*\))?\s*(mutable)?\s*(->\s*[\w:<>,\s]+)?$',head)
            stack.append((i, bool(isfn and not kw and not lam and depth_fn(stack))))
        elif c=='}' and stack:
            st,fn=stack.pop()
            if fn:
                l0=s.count('\n',0,st)+1; l1=s.count('\n',0,i)+1
                m=re.findall(r'([\w:~]+)\s*\(',s[max(0,st-300):st])
                res.append((l1-l0+1,f,l0,m[0] if m else '?'))
for length, path, line, _ in sorted(res, reverse=True)[:int(sys.argv[1]) if len(sys.argv) > 1 else 10]:
    print(f"{length:4d}  {path}:{line}")
